"""GraphiQL's files: taken from their npm tarballs, kept only when their hash is the one the
page names, bundled by the build from the list it keeps, and the page rewritten to this
server's copies (api/graphiql.py, api/npm_files.py)."""

from __future__ import annotations

import base64
import functools
import hashlib
import http.server
import io
import tarfile
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import api.graphiql
from api.graphiql import (
    ASSETS_PATH,
    CDN,
    LISTED,
    AssetError,
    cdn_page,
    default_folder,
    fetch_assets,
    listed_assets,
    local_page,
    missing_assets,
    page_assets,
)
from api.npm_files import bundle
from tests.e2e.support import free_port

SCRIPT = b"console.log('graphiql');\n"
STYLE = b".graphiql { color: red }\n"


def integrity(content: bytes) -> str:
    return "sha384-" + base64.b64encode(hashlib.sha384(content).digest()).decode()


def page() -> str:
    return (
        f'<script src="{CDN}solo@1.0.0/dist/solo.js" integrity="{integrity(SCRIPT)}"></script>\n'
        f'<link rel="stylesheet" href="{CDN}@scope/style@2.0.0/style.css"'
        f' integrity="{integrity(STYLE)}" />'
    )


def tarball(files: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w:gz") as archive:
        for name, content in files.items():
            member = tarfile.TarInfo(f"package/{name}")
            member.size = len(content)
            archive.addfile(member, io.BytesIO(content))
    return buffer.getvalue()


class QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def registry(tmp_path: Path) -> Iterator[Path]:
    """A folder served over HTTP laid out as the npm registry lays out its tarballs."""
    root = tmp_path / "registry"
    root.mkdir()
    handler = functools.partial(QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root.joinpath(".url").write_text(f"http://127.0.0.1:{server.server_address[1]}/")
    try:
        yield root
    finally:
        server.shutdown()
        server.server_close()


def publish(registry: Path, package: str, version: str, files: dict[str, bytes]) -> None:
    name = package.rsplit("/", 1)[-1]
    target = registry / package / "-" / f"{name}-{version}.tgz"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(tarball(files))


def test_strawberrys_page_names_every_file_with_its_hash() -> None:
    assets = page_assets(cdn_page())
    assert {asset.package for asset in assets} >= {"graphiql", "react", "react-dom"}
    assert all(asset.integrity.startswith("sha384-") for asset in assets)


def test_a_page_naming_a_cdn_file_without_a_hash_is_refused() -> None:
    with pytest.raises(AssetError, match="without its hash"):
        page_assets(f'<script src="{CDN}solo@1.0.0/solo.js"></script>')


def test_files_are_fetched_from_their_tarballs_once(registry: Path, tmp_path: Path) -> None:
    publish(registry, "solo", "1.0.0", {"dist/solo.js": SCRIPT, "README.md": b"other"})
    publish(registry, "@scope/style", "2.0.0", {"style.css": STYLE})
    folder = tmp_path / "assets"
    url = registry.joinpath(".url").read_text()

    fetched = fetch_assets(folder, registry=url, page=page())

    assert [asset.relative for asset in fetched] == [
        "solo@1.0.0/dist/solo.js",
        "@scope/style@2.0.0/style.css",
    ]
    assert (folder / "solo@1.0.0/dist/solo.js").read_bytes() == SCRIPT
    assert (folder / "@scope/style@2.0.0/style.css").read_bytes() == STYLE
    assert missing_assets(folder, page()) == []
    assert fetch_assets(folder, registry=url, page=page()) == []  # nothing more to fetch


def test_a_file_whose_hash_differs_is_not_kept(registry: Path, tmp_path: Path) -> None:
    publish(registry, "solo", "1.0.0", {"dist/solo.js": b"alert('not graphiql')"})
    folder = tmp_path / "assets"
    url = registry.joinpath(".url").read_text()
    with pytest.raises(AssetError, match="not the file"):
        fetch_assets(folder, registry=url, page=page())
    assert not (folder / "solo@1.0.0/dist/solo.js").exists()


def test_a_changed_file_on_disk_counts_as_missing(registry: Path, tmp_path: Path) -> None:
    publish(registry, "solo", "1.0.0", {"dist/solo.js": SCRIPT})
    publish(registry, "@scope/style", "2.0.0", {"style.css": STYLE})
    folder = tmp_path / "assets"
    url = registry.joinpath(".url").read_text()
    fetch_assets(folder, registry=url, page=page())
    (folder / "solo@1.0.0/dist/solo.js").write_bytes(b"tampered")
    assert [asset.package for asset in missing_assets(folder, page())] == ["solo"]
    assert [asset.package for asset in fetch_assets(folder, registry=url, page=page())] == ["solo"]


def test_an_unreachable_registry_or_missing_file_is_an_asset_error(
    registry: Path, tmp_path: Path
) -> None:
    url = registry.joinpath(".url").read_text()
    with pytest.raises(AssetError, match="cannot fetch"):
        fetch_assets(tmp_path / "assets", registry=url, page=page())
    publish(registry, "solo", "1.0.0", {"dist/other.js": SCRIPT})
    with pytest.raises(AssetError, match=r"holds no package/dist/solo\.js"):
        fetch_assets(tmp_path / "assets", registry=url, page=page())


def test_the_local_page_waits_for_every_file(tmp_path: Path) -> None:
    assert local_page(tmp_path) is None


def test_the_local_page_names_only_this_servers_files(graphiql_assets: Path) -> None:
    served = local_page(graphiql_assets)
    assert served is not None
    assert CDN not in served
    assert served.count(f'"{ASSETS_PATH}') == len(page_assets(cdn_page()))


def test_the_command_fills_the_folder_and_says_where(
    graphiql_assets: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from api.cli import main

    assert main(["graphiql-assets", "--dir", str(graphiql_assets)]) == 0
    assert f"GraphiQL's files are in {graphiql_assets}" in capsys.readouterr().out


def test_the_list_the_build_bundles_is_strawberrys_page() -> None:
    """The build cannot ask Strawberry (it does not install it): a Strawberry upgrade that
    changes GraphiQL's files fails here until the list is written anew."""
    assert listed_assets() == page_assets(cdn_page()), (
        "GraphiQL's files changed: risiko graphiql-assets --list > api/graphiql_files.json"
    )


def test_the_command_prints_the_list(capsys: pytest.CaptureFixture[str]) -> None:
    from api.cli import main

    assert main(["graphiql-assets", "--list"]) == 0
    assert capsys.readouterr().out == LISTED.read_text()


def test_the_build_takes_the_files_from_the_cache_once_fetched(
    registry: Path, tmp_path: Path
) -> None:
    publish(registry, "solo", "1.0.0", {"dist/solo.js": SCRIPT})
    publish(registry, "@scope/style", "2.0.0", {"style.css": STYLE})
    url = registry.joinpath(".url").read_text()
    assets = page_assets(page())
    cache = tmp_path / "cache"

    bundle(tmp_path / "first", assets, cache, url)
    assert missing_assets(tmp_path / "first", page()) == []
    assert missing_assets(cache, page()) == []

    unreachable = f"http://127.0.0.1:{free_port()}/"
    (cache / "solo@1.0.0/dist/solo.js").write_bytes(b"tampered")
    with pytest.raises(AssetError, match="cannot fetch"):  # never a file with another hash
        bundle(tmp_path / "second", assets, cache, unreachable)
    bundle(tmp_path / "second", assets, cache, url)
    bundle(tmp_path / "third", assets, cache, unreachable)  # all in the cache: no network
    assert (tmp_path / "third" / "solo@1.0.0/dist/solo.js").read_bytes() == SCRIPT


def test_the_default_folder_is_the_packages_own_files_else_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    monkeypatch.setattr(api.graphiql, "BUNDLED", tmp_path / "graphiql_files")
    assert default_folder() == tmp_path / "cache" / "risiko" / "graphiql"  # a checkout
    (tmp_path / "graphiql_files").mkdir()
    assert default_folder() == tmp_path / "graphiql_files"  # an installed package
