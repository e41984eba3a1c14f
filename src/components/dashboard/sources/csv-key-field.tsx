"use client";

import { useState } from "react";
import { Input, Label, Select } from "@/components/ui/input";

/** What a blank key means (D33, D150), said where the choice is made (D495). */
const CSV_POSITION_KEY_HINT =
  "Blank: rows are keyed by their position in the file, so a row's id changes whenever rows above it are added, removed or reordered. Choose a column with unique values (an id) to keep ids stable.";

/** The header of a CSV file: its first line, split on commas outside quotes (enough to offer names). */
function csvHeader(text: string): string[] {
  const line = text.replace(/^\uFEFF/, "").split(/\r?\n/, 1)[0] ?? "";
  const names: string[] = [];
  let current = "";
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const char = line[i]!;
    if (quoted && char === '"' && line[i + 1] === '"') {
      current += '"';
      i++;
    } else if (char === '"') {
      quoted = !quoted;
    } else if (char === "," && !quoted) {
      names.push(current.trim());
      current = "";
    } else {
      current += char;
    }
  }
  names.push(current.trim());
  return names.filter((name) => name !== "");
}

/**
 * The CSV source's key column: typed, or picked from the header of a file read here in the
 * browser (only its first 64 KiB; nothing is uploaded until the source exists).
 */
export function CsvKeyField({ idPrefix }: { idPrefix: string }) {
  const [columns, setColumns] = useState<string[] | null>(null);
  const id = `${idPrefix}-csv-key`;
  return (
    <div className="space-y-3">
      <div className="space-y-1.5">
        <Label htmlFor={`${idPrefix}-csv-sample`}>Read column names from a file (optional)</Label>
        <input
          id={`${idPrefix}-csv-sample`}
          type="file"
          accept=".csv,text/csv"
          className="block w-full text-sm text-slate-700"
          onChange={(event) => {
            const file = event.target.files?.[0];
            if (file)
              void file
                .slice(0, 64 * 1024)
                .text()
                .then((text) => setColumns(csvHeader(text)));
          }}
        />
      </div>
      <div className="space-y-1.5">
        <Label htmlFor={id}>Key column (optional)</Label>
        {columns && columns.length > 0 ? (
          <Select id={id} name="csvKey" defaultValue="">
            <option value="">(none: key rows by position)</option>
            {columns.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </Select>
        ) : (
          <Input id={id} name="csvKey" maxLength={63} placeholder="id" aria-describedby={`${id}-hint`} />
        )}
        <p id={`${id}-hint`} className="text-xs text-slate-600">
          {CSV_POSITION_KEY_HINT}
        </p>
      </div>
    </div>
  );
}
