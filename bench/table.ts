/** The result table: one line per figure, Groundwork beside the reference and their ratio. */
export class Table {
  private readonly lines: string[][] = [];

  add(what: string, groundwork: string, reference: string, ratio: string, target = ""): void {
    this.lines.push([what, groundwork, reference, ratio, target]);
  }

  markdown(): string {
    const head = ["what", "Groundwork", "reference", "ratio", "target"];
    return [head, head.map(() => "---"), ...this.lines].map((cells) => `| ${cells.join(" | ")} |`).join("\n");
  }
}

export const ms = (value: number) => `${value.toFixed(2)} ms`;
export const ratio = (a: number, b: number) => `${(a / b).toFixed(2)}×`;
export const pct = (a: number, b: number) => `${((a / b) * 100).toFixed(0)} %`;
/** A target's verdict for the table's last column: `✔ ≤ 0.5 ms` or `✗ ≤ 0.5 ms`. */
export const verdict = (met: boolean, target: string) => `${met ? "✔" : "✗"} ${target}`;
