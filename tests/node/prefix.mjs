// A reverse proxy that serves a server under a path prefix, as one behind nginx would be
// (http://host/risiko/… to http://server/…, the Host header kept, as a proxy passes it),
// WebSocket upgrades included: for the tests of the web client behind a prefix.
import http from "node:http";
import net from "node:net";

/** Start a proxy on a free port; returns its port and how to close it. */
export async function prefixProxy(serverUrl, prefix) {
  const target = new URL(serverUrl);
  const strip = (path) => (path.startsWith(prefix) ? path.slice(prefix.length - 1) : null);
  const proxy = http.createServer((request, response) => {
    const path = strip(request.url);
    if (path === null) {
      response.writeHead(404).end("not under the prefix");
      return;
    }
    const upstream = http.request(
      { host: target.hostname, port: target.port, path, method: request.method, headers: request.headers },
      (answer) => {
        response.writeHead(answer.statusCode, answer.headers);
        answer.pipe(response);
      },
    );
    upstream.on("error", () => response.destroy());
    request.pipe(upstream);
  });
  proxy.on("upgrade", (request, socket, head) => {
    const path = strip(request.url);
    if (path === null) return socket.destroy();
    const upstream = net.connect(Number(target.port), target.hostname, () => {
      const headers = Object.entries(request.headers).map(([k, v]) => `${k}: ${v}`);
      upstream.write(`${request.method} ${path} HTTP/1.1\r\n${headers.join("\r\n")}\r\n\r\n`);
      upstream.write(head);
      upstream.pipe(socket);
      socket.pipe(upstream);
    });
    upstream.on("error", () => socket.destroy());
    socket.on("error", () => upstream.destroy());
  });
  await new Promise((resolve) => proxy.listen(0, "127.0.0.1", resolve));
  return { port: proxy.address().port, close: () => proxy.close() };
}
