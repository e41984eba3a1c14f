"use client";

import { CheckCircle2, Plug, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogTrigger } from "@/components/ui/dialog";
import { Input, Label, Select } from "@/components/ui/input";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { scheduleLabel } from "./format";
import { CaptureModeField, type ModeSupportDto } from "./capture-mode-field";
import { CsvKeyField } from "./csv-key-field";
import { PostgresSourceFields, readColumns, readConnection, type ConnectionFields, type Discover } from "./postgres-source-fields";

type Kind = "csv" | "postgres_table" | "crm_object";

/** Seconds; "" is on request only. 15 minutes is the service's default (D101). */
const SCHEDULES = [
  ["300", "every 5 minutes"],
  ["900", "every 15 minutes (default)"],
  ["3600", "every hour"],
  ["21600", "every 6 hours"],
  ["86400", "every day"],
  ["", "on request only"],
] as const;

const list = (value: FormDataEntryValue | null) => {
  const items = String(value ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length > 0 ? items : null;
};
const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();
const connectionCredentials = (c: ConnectionFields) => ({ ...c, sslmode: (c.sslmode || null) as "disable" | null });

/** The connector part of the form, as create and test-connection take it. Secrets only go up. */
function connectorSettings(kind: Exclude<Kind, "csv">, form: FormData) {
  return kind === "postgres_table"
    ? ({
        kind,
        config: { table: text(form, "table"), keyColumn: text(form, "keyColumn"), orderColumn: text(form, "orderColumn") || null, columns: readColumns(form) },
        credentials: connectionCredentials(readConnection(form)),
      } as const)
    : ({
        kind,
        config: { instanceUrl: text(form, "instanceUrl"), object: text(form, "object"), fields: list(form.get("fields")) },
        credentials: { clientId: text(form, "clientId"), clientSecret: String(form.get("clientSecret") ?? "") },
      } as const);
}

export function CreateSourceDialog({ organizationId }: { organizationId: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [kind, setKind] = useState<Kind>("postgres_table");
  const [schedule, setSchedule] = useState("900");
  const [error, setError] = useState<ShownError | null>(null);
  const [check, setCheck] = useState<
    { ok: true; columns: string[]; rowsSampled: number; captureModes: ModeSupportDto[] } | { ok: false; reason: string } | null
  >(null);
  /** "" = automatic: the best mode the target supports, chosen by the first pass. */
  const [captureMode, setCaptureMode] = useState("");
  const [pending, setPending] = useState(false);

  const discover: Discover = (connection, table, keyColumn) =>
    trpc.sources.discover.mutate({ organizationId, credentials: connectionCredentials(connection), table, keyColumn });

  async function testConnection(formElement: HTMLFormElement) {
    if (kind === "csv") return;
    setCheck(null);
    setCaptureMode("");
    setError(null);
    setPending(true);
    try {
      setCheck(await trpc.sources.testConnection.mutate({ organizationId, settings: connectorSettings(kind, new FormData(formElement)) }));
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const name = text(form, "name");
    setPending(true);
    setError(null);
    try {
      const source =
        kind === "csv"
          ? { kind, name, keyColumn: text(form, "csvKey") || null }
          : {
              ...connectorSettings(kind, form),
              name,
              syncIntervalSeconds: schedule === "" ? null : Number(schedule),
              captureMode: captureMode === "" ? null : (captureMode as "compare" | "xmin" | "cdc" | "modified_since"),
            };
      const created = await trpc.sources.create.mutate({ organizationId, source });
      setOpen(false);
      router.push(`/dashboard/organizations/${organizationId}/sources/${created.id}?created=1`);
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setError(null);
        setCheck(null);
      }}
    >
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden /> New source
        </Button>
      </DialogTrigger>
      <DialogContent title="New data source" description="Connection secrets are stored encrypted and never shown again, not even here.">
        <form onSubmit={(e) => void onSubmit(e)} className="space-y-3" aria-label="New data source" autoComplete="off">
          <Field id="src-kind" label="Kind">
            <Select
              id="src-kind"
              value={kind}
              onChange={(e) => {
                setKind(e.target.value as Kind);
                setCheck(null);
                setCaptureMode("");
              }}
            >
              <option value="postgres_table">Postgres table (mirrored on a schedule)</option>
              <option value="crm_object">CRM object (mirrored on a schedule)</option>
              <option value="csv">CSV (uploaded by hand)</option>
            </Select>
          </Field>
          <Field id="src-name" label="Name">
            <Input id="src-name" name="name" required maxLength={200} placeholder="Customers" />
          </Field>
          {kind === "csv" ? <CsvKeyField idPrefix="src" /> : null}
          {kind === "postgres_table" ? (
            <PostgresSourceFields
              idPrefix="src"
              discover={discover}
              passwordRequired={false}
              captureMode={captureMode}
              onCaptureMode={setCaptureMode}
              captureModeName="captureMode"
            />
          ) : null}
          {kind === "crm_object" ? (
            <>
              <div className="grid gap-3 sm:grid-cols-2">
                <Field id="src-instance" label="Instance URL">
                  <Input id="src-instance" name="instanceUrl" type="url" required placeholder="https://example.my.salesforce.com" />
                </Field>
                <Field id="src-object" label="Object">
                  <Input id="src-object" name="object" required placeholder="Account" />
                </Field>
                <Field id="src-client-id" label="Client id">
                  <Input id="src-client-id" name="clientId" required autoComplete="off" />
                </Field>
                <Field id="src-client-secret" label="Client secret" hint="Write-only.">
                  <Input id="src-client-secret" name="clientSecret" type="password" required autoComplete="new-password" />
                </Field>
              </div>
              <Field id="src-fields" label="Fields (optional)" hint="Comma-separated API names; empty mirrors all.">
                <Input id="src-fields" name="fields" />
              </Field>
            </>
          ) : null}
          {kind !== "csv" ? (
            <Field
              id="src-schedule"
              label="Schedule"
              hint={
                schedule === ""
                  ? "It syncs only when someone presses “Sync now”."
                  : `First pass within a minute of saving, then ${scheduleLabel(kind, Number(schedule))}.`
              }
            >
              <Select id="src-schedule" value={schedule} onChange={(e) => setSchedule(e.target.value)}>
                {SCHEDULES.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
          ) : null}
          {kind === "crm_object" ? (
            <CaptureModeField name="captureMode" modes={check?.ok ? check.captureModes : null} value={captureMode} onChange={setCaptureMode} allowAutomatic />
          ) : null}
          {kind === "crm_object" && check ? (
            check.ok ? (
              <Alert tone="success" title="Connection works">
                Read {check.rowsSampled} sample row{check.rowsSampled === 1 ? "" : "s"}; columns: {check.columns.join(", ")}.
              </Alert>
            ) : (
              <Alert title="Connection failed">
                <span data-testid="connection-reason">{check.reason}</span>
              </Alert>
            )
          ) : null}
          {error ? (
            <Alert title="Not saved" requestId={error.requestId}>
              {error.message}
            </Alert>
          ) : null}
          <div className="flex flex-wrap justify-end gap-2 pt-1">
            {kind === "crm_object" ? (
              <Button type="button" variant="outline" disabled={pending} onClick={(e) => e.currentTarget.form && void testConnection(e.currentTarget.form)}>
                {check?.ok ? <CheckCircle2 aria-hidden /> : <Plug aria-hidden />} Test connection
              </Button>
            ) : null}
            <Button type="submit" disabled={pending}>
              Create source
            </Button>
          </div>
        </form>
      </DialogContent>
    </Dialog>
  );
}

function Field({ id, label, hint, children }: { id: string; label: string; hint?: string; children: React.ReactNode }) {
  return (
    <div className="space-y-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
      {hint ? <p className="text-xs text-slate-500">{hint}</p> : null}
    </div>
  );
}
