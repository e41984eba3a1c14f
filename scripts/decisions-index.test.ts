import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { duplicateIds, INDEX_END, INDEX_START, parseDecisions, withIndex } from "./decisions/index-block";

const file = path.resolve(import.meta.dirname, "..", "docs", "decisions.md");

const sample = `# Decisions

Intro.

## Platform

### D10. Later number first
Text.

### D2a. A lettered one (issue 3)
Text.

### D2. Old way (superseded by D10)
Text.

## Other

### D3. Partly replaced
Text.

### D4. Explicit
Status: replaced
Text.

### D5. Newer
Supersedes the "x" part of D3. Text.
`;

describe("the decisions index", () => {
  it("lists every entry in numeric order with its status and a working anchor", () => {
    const decisions = parseDecisions(sample);
    expect(decisions.map((d) => [d.id, d.title, d.status])).toEqual([
      ["D2", "Old way", "superseded by D10"],
      ["D2a", "A lettered one (issue 3)", "active"],
      ["D3", "Partly replaced", "active; in part superseded by D5"],
      ["D4", "Explicit", "replaced"],
      ["D5", "Newer", "active"],
      ["D10", "Later number first", "active"],
    ]);
    expect(decisions.find((d) => d.id === "D2a")?.anchor).toBe("d2a-a-lettered-one-issue-3");
    expect(decisions.find((d) => d.id === "D2")?.anchor).toBe("d2-old-way-superseded-by-d10");
  });

  it("is inserted before the first section once, then rebuilt in place", () => {
    const once = withIndex(sample);
    expect(once.indexOf(INDEX_START)).toBeLessThan(once.indexOf("## Platform"));
    expect(withIndex(once)).toBe(once);
    const appended = `${once}\n### D6. Appended at the end by someone else\nText.\n`;
    const rebuilt = withIndex(appended);
    expect(rebuilt).toContain("| [D6](#d6-appended-at-the-end-by-someone-else) | Appended at the end by someone else | active |");
    expect(rebuilt.split(INDEX_END).length).toBe(2);
  });

  it("groups the index by topic, an unmapped group under Other, anchors unchanged (issue 45)", () => {
    const grouped = `# Decisions

## Platform

### D7. A platform choice
Text.

## The /api/v1 surface

### D8. An API choice
Text.

## Keys and authorization (spec 2.1, 3.1, 5)

### D9. A key choice
Text.

## A group someone appended in parallel

### D6. Not yet mapped
Text.
`;
    const index = withIndex(grouped);
    const order = [
      "**API surface** (1)",
      "[D8](#d8-an-api-choice)",
      "**Auth and keys** (1)",
      "[D9](#d9-a-key-choice)",
      "**Operations** (1)",
      "[D7](#d7-a-platform-choice)",
      "**Other** (1)",
      "[D6](#d6-not-yet-mapped)",
    ];
    const positions = order.map((needle) => index.indexOf(needle));
    expect(
      positions.every((p) => p >= 0),
      `missing: ${order.filter((_, i) => positions[i]! < 0).join(", ")}`,
    ).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(parseDecisions(grouped).map((d) => d.group)).toEqual([
      "A group someone appended in parallel",
      "Platform",
      "The /api/v1 surface",
      "Keys and authorization (spec 2.1, 3.1, 5)",
    ]);
    expect(withIndex(index)).toBe(index);
  });

  it("finds numbers used twice", () => {
    expect(duplicateIds(parseDecisions(`${sample}\n### D4. Again\n`))).toEqual(["D4"]);
  });

  it("docs/decisions.md: the index is current and no number is used twice (else run `npm run docs:index`)", () => {
    const text = readFileSync(file, "utf8");
    expect(duplicateIds(parseDecisions(text))).toEqual([]);
    expect(withIndex(text) === text, "docs/decisions.md's index is stale: run `npm run docs:index`").toBe(true);
  });
});
