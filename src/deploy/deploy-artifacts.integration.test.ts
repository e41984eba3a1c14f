import { execFileSync, spawnSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";

// The production artifacts under deploy/ (docs/operations.md), checked by the tools that run them.
const root = path.resolve(import.meta.dirname, "../..");
const deploy = path.join(root, "deploy");

beforeAll(() => {
  execFileSync("bash", [path.join(root, "scripts/ensure-debian-packages.sh"), "promtool=prometheus", "systemd-analyze=systemd"], { stdio: "inherit" });
});

describe("deploy/", () => {
  it("systemd units pass `systemd-analyze verify` without a warning", () => {
    const units = readdirSync(path.join(deploy, "systemd"))
      .filter((name) => name.endsWith(".service"))
      .sort();
    expect(units).toEqual(["groundwork-web.service", "groundwork-worker.service"]);
    const result = spawnSync("systemd-analyze", ["verify", ...units.map((unit) => `./${unit}`)], { cwd: path.join(deploy, "systemd"), encoding: "utf8" });
    // Unknown keys and missing commands are warnings on stderr; any of them fails here.
    expect({ status: result.status, stderr: result.stderr.trim() }).toEqual({ status: 0, stderr: "" });
  });

  it("the alert rules pass `promtool check rules`", () => {
    const result = spawnSync("promtool", ["check", "rules", path.join(deploy, "prometheus", "groundwork-alerts.yml")], { encoding: "utf8" });
    expect(result.status, result.stdout + result.stderr).toBe(0);
    expect(result.stdout).toMatch(/SUCCESS: \d+ rules found/);
  });

  it("the environment file example names only variables the app reads", () => {
    const names = (text: string) => [...text.matchAll(/^#?([A-Z][A-Z0-9_]+)=/gm)].map((match) => match[1]!);
    const example = readFileSync(path.join(deploy, "groundwork.env.example"), "utf8");
    const envSource = readFileSync(path.join(root, "src/env.ts"), "utf8");
    const unknown = names(example).filter((name) => !new RegExp(`\\b${name}:`).test(envSource));
    expect(unknown).toEqual([]);
  });
});
