"use client";

import { CheckCircle2, Plug } from "lucide-react";
import { useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input, Label, Select } from "@/components/ui/input";
import { describeError } from "@/lib/trpc-client";
import type { DiscoverSourceDto } from "@/server/api/dashboard/sources/discover-source.types";
import { CaptureModeField } from "./capture-mode-field";

/** Order column types the connector takes (numbers, dates and timestamps), as format_type names them. */
const ORDERABLE = /^(smallint|integer|bigint|numeric|real|double precision|date|timestamp)\b/;

const SSL_MODES = ["", "disable", "prefer", "require", "verify-ca", "verify-full", "no-verify"];

/** The connection as the form holds it (the password only ever goes up). */
export interface ConnectionFields {
  host: string;
  port: number;
  database: string;
  user: string;
  password: string;
  sslmode: string | null;
}

/** What "Test connection" asks: the form's connection, a table to list the columns of, a key to probe. */
export type Discover = (connection: ConnectionFields, table: string | null, keyColumn: string | null) => Promise<DiscoverSourceDto>;

type Found = Extract<DiscoverSourceDto, { ok: true }>;

export function readConnection(form: FormData): ConnectionFields {
  const text = (name: string) => String(form.get(name) ?? "").trim();
  return {
    host: text("host"),
    port: Number(text("port") || "5432"),
    database: text("database"),
    user: text("user"),
    password: String(form.get("password") ?? ""),
    sslmode: text("sslmode") || null,
  };
}

/** The column selection of the form: null mirrors every column (including ones added later). */
export function readColumns(form: FormData): string[] | null {
  if (form.get("columnsMode") !== "some") return null;
  const chosen = form.getAll("column").map(String);
  return chosen.length > 0 ? chosen : null;
}

/**
 * The Postgres part of the create and edit dialogs, one layout for both (D494): the connection in
 * separate fields (only the password masked), "Test connection" with its result right below it,
 * then the readable tables, the chosen table's columns (key, order, which to mirror), and the
 * capture modes with the best one preselected, all picked from what the server discovered.
 * The edit dialog shows the table and key fixed (they define the mirror, D132).
 */
export function PostgresSourceFields(props: {
  idPrefix: string;
  discover: Discover;
  initial?: { host: string; port: number; database: string; user: string; sslmode: string | null; hasPassword: boolean };
  fixed?: { table: string; keyColumn: string };
  initialConfig?: { orderColumn: string | null; columns: string[] | null };
  /** Edit: the hint under the password (stored, or needed again for a new destination). */
  passwordHint?: string;
  passwordRequired: boolean;
  captureMode: string;
  onCaptureMode: (mode: string) => void;
  captureModeName: string;
  currentCaptureMode?: string | null;
}) {
  const p = props.idPrefix;
  const box = useRef<HTMLDivElement>(null);
  const [found, setFound] = useState<Found | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [pending, setPending] = useState(false);
  const [table, setTable] = useState(props.fixed?.table ?? "");
  const [key, setKey] = useState(props.fixed?.keyColumn ?? "");
  const [order, setOrder] = useState(props.initialConfig?.orderColumn ?? "");
  const [some, setSome] = useState(props.initialConfig?.columns != null);
  const [chosen, setChosen] = useState<string[]>(props.initialConfig?.columns ?? []);

  async function run(nextTable: string | null, nextKey: string | null) {
    const form = box.current?.closest("form");
    if (!form) return;
    setPending(true);
    setFailure(null);
    try {
      const outcome = await props.discover(readConnection(new FormData(form)), nextTable, nextKey);
      if (!outcome.ok) {
        setFound(null);
        setFailure(outcome.reason);
        return;
      }
      setFound(outcome);
      const names = outcome.columns?.map((c) => c.name) ?? null;
      if (names && !props.fixed) {
        setKey(nextKey ?? outcome.suggestedKey ?? "");
        if (!names.includes(order)) setOrder("");
        setChosen(names);
      } else if (names && chosen.length === 0) setChosen(names);
      const check = outcome.check;
      if (check?.ok && props.currentCaptureMode === undefined) props.onCaptureMode(check.bestCaptureMode);
    } catch (caught) {
      setFound(null);
      setFailure(describeError(caught).message);
    } finally {
      setPending(false);
    }
  }

  const columns = found?.columns ?? null;
  const check = found?.check ?? null;
  const tested = found !== null;
  return (
    <div ref={box} className="space-y-3">
      <fieldset className="space-y-3">
        <legend className="text-sm font-medium text-slate-800">Connection</legend>
        <div className="grid gap-3 sm:grid-cols-[1fr_7rem]">
          <Field id={`${p}-host`} label="Host">
            <Input
              id={`${p}-host`}
              name="host"
              required
              maxLength={253}
              defaultValue={props.initial?.host}
              placeholder="db.example.com"
              spellCheck={false}
              autoCapitalize="off"
            />
          </Field>
          <Field id={`${p}-port`} label="Port">
            <Input id={`${p}-port`} name="port" required inputMode="numeric" pattern="[0-9]+" defaultValue={String(props.initial?.port ?? 5432)} />
          </Field>
        </div>
        <div className="grid gap-3 sm:grid-cols-2">
          <Field id={`${p}-database`} label="Database">
            <Input
              id={`${p}-database`}
              name="database"
              required
              maxLength={63}
              defaultValue={props.initial?.database}
              spellCheck={false}
              autoCapitalize="off"
            />
          </Field>
          <Field id={`${p}-user`} label="User">
            <Input
              id={`${p}-user`}
              name="user"
              required
              maxLength={63}
              defaultValue={props.initial?.user}
              spellCheck={false}
              autoCapitalize="off"
              autoComplete="off"
            />
          </Field>
          <Field id={`${p}-password`} label="Password" hint={props.passwordHint ?? "Write-only: stored encrypted, never shown again."}>
            <Input
              id={`${p}-password`}
              name="password"
              type="password"
              autoComplete="new-password"
              required={props.passwordRequired}
              placeholder={props.initial ? (props.passwordRequired ? "required" : "unchanged") : undefined}
            />
          </Field>
          <Field id={`${p}-sslmode`} label="sslmode">
            <Select id={`${p}-sslmode`} name="sslmode" defaultValue={props.initial?.sslmode ?? ""}>
              {SSL_MODES.map((mode) => (
                <option key={mode} value={mode}>
                  {mode === "" ? "(driver default: no TLS)" : mode}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      </fieldset>
      <div className="space-y-2">
        <Button
          type="button"
          variant="outline"
          disabled={pending}
          onClick={() => void run(props.fixed?.table ?? (table || null), props.fixed ? props.fixed.keyColumn : key || null)}
        >
          {tested ? <CheckCircle2 aria-hidden /> : <Plug aria-hidden />} {pending ? "Testing…" : "Test connection"}
        </Button>
        <div role="status" aria-live="polite">
          {failure ? (
            <Alert title="Connection failed">
              <span data-testid="connection-reason">{failure}</span>
            </Alert>
          ) : found ? (
            <Alert tone="success" title="Connection works">
              {found.tables.length} table{found.tables.length === 1 ? "" : "s"} this user may read{found.truncated ? " (the first ones)" : ""}
              {check?.ok ? `; read ${check.rowsSampled} sample row${check.rowsSampled === 1 ? "" : "s"} of ${table}` : ""}.
              {check && !check.ok ? (
                <span className="block">
                  Reading {table} failed: {check.reason}
                </span>
              ) : null}
            </Alert>
          ) : (
            <p className="text-xs text-slate-600">Test the connection to pick the table and its columns from what this user may read.</p>
          )}
        </div>
      </div>
      {props.fixed ? (
        <div className="rounded-md bg-slate-50 px-3 py-2 text-sm">
          <p className="font-medium text-slate-700">Table and key column</p>
          <p className="break-all text-slate-900">
            <code>{`${props.fixed.table} · ${props.fixed.keyColumn}`}</code>
          </p>
          <p className="mt-1 text-xs text-slate-600">Fixed: they define what this source mirrors. To mirror another table, create a new source.</p>
        </div>
      ) : tested ? (
        <Field id={`${p}-table`} label="Table">
          <Select
            id={`${p}-table`}
            name="table"
            required
            value={table}
            onChange={(event) => {
              setTable(event.target.value);
              setKey("");
              if (event.target.value) void run(event.target.value, null);
            }}
          >
            <option value="">Choose a table…</option>
            {found.tables.map((t) => (
              <option key={t.name} value={t.name}>
                {t.name}
                {t.kind === "table" ? "" : ` (${t.kind})`}
              </option>
            ))}
          </Select>
        </Field>
      ) : null}
      {columns && !props.fixed ? (
        <Field id={`${p}-key`} label="Key column" hint="Identifies a row: unique and never empty. The primary key is preselected.">
          <Select
            id={`${p}-key`}
            name="keyColumn"
            required
            value={key}
            onChange={(event) => {
              setKey(event.target.value);
              if (event.target.value) void run(table, event.target.value);
            }}
          >
            <option value="">Choose the key column…</option>
            {columns.map((c) => (
              <option key={c.name} value={c.name}>
                {c.name} ({c.type}
                {c.primaryKey ? ", primary key" : c.unique ? ", unique" : ""})
              </option>
            ))}
          </Select>
        </Field>
      ) : null}
      {columns || props.fixed ? (
        <Field id={`${p}-order`} label="Order column (optional)" hint="Rows are shown in this column's order: a number or a date column.">
          {columns ? (
            <Select id={`${p}-order`} name="orderColumn" value={order} onChange={(event) => setOrder(event.target.value)}>
              <option value="">(none)</option>
              {columns
                .filter((c) => ORDERABLE.test(c.type) || c.name === order)
                .map((c) => (
                  <option key={c.name} value={c.name}>
                    {c.name} ({c.type})
                  </option>
                ))}
            </Select>
          ) : (
            <Input id={`${p}-order`} name="orderColumn" value={order} onChange={(event) => setOrder(event.target.value)} />
          )}
        </Field>
      ) : null}
      {columns || props.fixed ? (
        <fieldset className="space-y-1.5">
          <legend className="text-sm font-medium text-slate-800">Columns</legend>
          <input type="hidden" name="columnsMode" value={some ? "some" : "all"} />
          <Radio id={`${p}-cols-all`} name={`${p}-cols`} checked={!some} onChange={() => setSome(false)} label="All columns, including ones added later" />
          <Radio id={`${p}-cols-some`} name={`${p}-cols`} checked={some} onChange={() => setSome(true)} label="Only these:" />
          {some && columns ? (
            <div className="grid gap-1 pl-6 sm:grid-cols-2">
              {columns.map((c) => (
                <label key={c.name} className="flex items-center gap-2 text-sm">
                  <input
                    type="checkbox"
                    name="column"
                    value={c.name}
                    checked={chosen.includes(c.name)}
                    onChange={(event) => setChosen((now) => (event.target.checked ? [...now, c.name] : now.filter((n) => n !== c.name)))}
                  />
                  <span className="break-all">{c.name}</span>
                </label>
              ))}
            </div>
          ) : some ? (
            <>
              {chosen.map((name) => (
                <input key={name} type="hidden" name="column" value={name} />
              ))}
              <p className="pl-6 text-xs text-slate-600">{chosen.join(", ") || "Test the connection to choose columns."}</p>
            </>
          ) : null}
        </fieldset>
      ) : null}
      {check?.ok || props.fixed ? (
        <CaptureModeField
          name={props.captureModeName}
          modes={check?.ok ? check.captureModes : null}
          value={props.captureMode}
          onChange={props.onCaptureMode}
          allowAutomatic={props.currentCaptureMode === undefined || props.currentCaptureMode === null}
          current={props.currentCaptureMode}
        />
      ) : null}
    </div>
  );
}

function Radio({ id, name, checked, onChange, label }: { id: string; name: string; checked: boolean; onChange: () => void; label: string }) {
  return (
    <div className="flex items-center gap-2">
      <input id={id} type="radio" name={name} checked={checked} onChange={onChange} />
      <label htmlFor={id} className="text-sm">
        {label}
      </label>
    </div>
  );
}

function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: React.ReactNode }) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? <p className="text-xs text-slate-600">{hint}</p> : null}
    </div>
  );
}
