"""What can be checked of deploy/ without a Docker engine: the files parse, the Kubernetes
manifests validate against their schemas, the compose file and the Dockerfile say what they
should, and the image's own commands (its CMD and its HEALTHCHECK) work when run directly."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx
import kubernetes_validate
import pytest
import yaml

from tests.e2e.support import free_port

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
MANIFESTS = sorted((DEPLOY / "k8s").glob("*.yaml"))
KUBERNETES = "1.33.0"


def load(path: Path) -> dict[str, Any]:
    data = yaml.safe_load(path.read_text())
    assert isinstance(data, dict)
    return data


@pytest.mark.parametrize("manifest", MANIFESTS, ids=lambda path: path.name)
def test_kubernetes_manifests_validate_against_their_schemas(manifest: Path) -> None:
    kubernetes_validate.validate(load(manifest), KUBERNETES, strict=True)


def test_the_manifests_wire_probes_settings_and_the_secret() -> None:
    kinds = {load(path)["kind"]: load(path) for path in MANIFESTS}
    assert set(kinds) == {
        "ConfigMap",
        "Deployment",
        "HorizontalPodAutoscaler",
        "PodDisruptionBudget",
        "Secret",
        "Service",
    }
    container = kinds["Deployment"]["spec"]["template"]["spec"]["containers"][0]
    assert container["readinessProbe"]["httpGet"]["path"] == "/readyz"
    assert container["livenessProbe"]["httpGet"]["path"] == "/healthz"
    sources = {next(iter(ref.values()))["name"] for ref in container["envFrom"]}
    assert sources == {kinds["ConfigMap"]["metadata"]["name"], kinds["Secret"]["metadata"]["name"]}
    assert "RISIKO_STORE" in kinds["Secret"]["stringData"]
    assert "RISIKO_STORE" not in kinds["ConfigMap"]["data"]
    target = kinds["HorizontalPodAutoscaler"]["spec"]["scaleTargetRef"]
    assert (target["kind"], target["name"]) == ("Deployment", "risiko")


def test_compose_runs_mongodb_8_as_a_replica_set_two_apis_and_a_proxy() -> None:
    compose = load(DEPLOY / "docker-compose.yml")
    services = compose["services"]
    assert services["mongo"]["image"].startswith("mongo:8")
    assert "--replSet" in services["mongo"]["command"]
    assert "rs.initiate" in " ".join(services["mongo"]["healthcheck"]["test"])
    api = services["api"]
    assert api["deploy"]["replicas"] == 2
    assert api["environment"]["RISIKO_STORE"].startswith("mongodb://mongo:27017/")
    assert "replicaSet=" in api["environment"]["RISIKO_STORE"]
    assert api["depends_on"]["mongo"]["condition"] == "service_healthy"
    proxy = services["proxy"]
    assert proxy["image"].startswith("nginx")
    nginx = (DEPLOY / "nginx.conf").read_text()
    assert "proxy_set_header Upgrade $http_upgrade;" in nginx
    assert "server api:8000" in nginx
    # The proxy bounds slow and numerous connections; the API trusts its X-Forwarded-For.
    for directive in (
        "client_header_timeout",
        "client_body_timeout",
        "limit_conn per_client",
        "gzip on;",
        "proxy_set_header X-Request-Id",
    ):
        assert directive in nginx
    assert api["environment"]["RISIKO_FORWARDED_ALLOW_IPS"] == "*"
    assert api["environment"]["RISIKO_MAX_CONNECTIONS_PER_ADDRESS"] == "0"


def dockerfile() -> str:
    return (DEPLOY / "Dockerfile").read_text()


def instruction(name: str) -> list[str]:
    """The exec-form arguments of the last `name` instruction (continuations joined)."""
    text = dockerfile().replace("\\\n", " ")
    lines = [line for line in text.splitlines() if line.startswith(name)]
    found = re.search(r"(\[.*\])\s*$", lines[-1])
    assert found, lines[-1]
    parsed = json.loads(found.group(1))
    assert isinstance(parsed, list)
    return [str(item) for item in parsed]


def test_the_image_is_slim_runs_as_a_user_and_checks_its_health() -> None:
    text = dockerfile()
    assert all(
        line.split()[1].endswith("-slim") for line in text.splitlines() if line.startswith("FROM")
    )
    users = [line.split()[1] for line in text.splitlines() if line.startswith("USER")]
    assert users
    assert users[-1] not in {"root", "0"}
    assert "HEALTHCHECK" in text


def test_the_images_command_serves_and_its_healthcheck_passes(tmp_path: Path) -> None:
    """CMD and HEALTHCHECK, run directly with the image's environment (another port)."""
    env = {
        **os.environ,
        "RISIKO_HOST": "127.0.0.1",
        "RISIKO_PORT": str(free_port()),
        "RISIKO_DATA_DIR": str(tmp_path),
    }
    command = instruction("CMD")
    command[0] = str(Path(sys.executable).parent / command[0])
    server = subprocess.Popen(
        command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
    )
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"http://127.0.0.1:{env['RISIKO_PORT']}/healthz").status_code == 200:
                    break
            except httpx.HTTPError:
                assert time.monotonic() < deadline, "the image's command did not serve"
                time.sleep(0.2)
        check = instruction("HEALTHCHECK")
        assert check[0] == "python"
        assert subprocess.run([sys.executable, *check[1:]], env=env, timeout=10).returncode == 0
    finally:
        server.terminate()
        server.wait(timeout=15)
