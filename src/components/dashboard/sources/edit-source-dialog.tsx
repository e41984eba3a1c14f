"use client";

import { Pencil } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFormFooter, DialogTrigger } from "@/components/ui/dialog";
import { Input, Label, Select } from "@/components/ui/input";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { scheduleLabel } from "./format";
import type { SourceConnection, SourceDetail } from "./types";
import { CaptureModeField, type ModeSupportDto } from "./capture-mode-field";
import { captureModeLabel } from "./capture-mode-labels";
import { PostgresSourceFields, readColumns, type Discover } from "./postgres-source-fields";

const SCHEDULES: Array<[string, string]> = [
  ["300", "every 5 minutes"],
  ["900", "every 15 minutes"],
  ["3600", "every hour"],
  ["21600", "every 6 hours"],
  ["86400", "every day"],
  ["", "on request only"],
];

const SECRET_NEEDED = {
  password: "Required: the host, port, database or user changed, and the stored password is only ever sent to the server it was saved for.",
  clientSecret: "Required: the instance URL or client id changed, and the stored secret is only ever sent to the CRM it was saved for.",
};

const text = (form: FormData, name: string) => String(form.get(name) ?? "").trim();
const list = (value: string) => {
  const items = value
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return items.length > 0 ? items : null;
};

/**
 * Edit a source (D132): name and schedule; on a managed source its column selection and its
 * connection. Secrets are write-only (blank keeps the stored one), and a changed destination
 * (host, port, database, user; instance URL, client id) needs its secret again (D360). What is mirrored (table, key,
 * object) is shown but fixed: another one is a new source. A changed connection is tested by the
 * server before it is saved, and the refusal is shown here.
 */
export function EditSourceDialog({ source, connection, label = "Edit" }: { source: SourceDetail; connection: SourceConnection | null; label?: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  const [modes, setModes] = useState<ModeSupportDto[] | null>(null);
  const [modesError, setModesError] = useState<string | null>(null);
  const [captureMode, setCaptureMode] = useState(source.captureMode ?? "");
  const [secretNeeded, setSecretNeeded] = useState(false);
  const config = (source.config ?? {}) as Record<string, unknown>;
  const current = source.syncIntervalSeconds === null ? "" : String(source.syncIntervalSeconds);
  const schedules = SCHEDULES.some(([value]) => value === current)
    ? SCHEDULES
    : [[current, scheduleLabel(source.kind, source.syncIntervalSeconds)] as [string, string], ...SCHEDULES];

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const edit: Parameters<typeof trpc.sources.edit.mutate>[0] = { organizationId: source.organizationId, sourceId: source.id, name: text(form, "name") };
    if (source.kind !== "csv") {
      const schedule = text(form, "schedule");
      edit.syncIntervalSeconds = schedule === "" ? null : Number(schedule);
    }
    if (source.kind === "postgres_table") {
      edit.config = { orderColumn: text(form, "orderColumn") || null, columns: readColumns(form) };
      edit.connection = {
        host: text(form, "host"),
        port: Number(text(form, "port")),
        database: text(form, "database"),
        user: text(form, "user"),
        password: String(form.get("password") ?? ""),
        sslmode: text(form, "sslmode") || null,
      };
    } else if (source.kind === "crm_object") {
      edit.config = { fields: list(text(form, "fields")) };
      edit.connection = { instanceUrl: text(form, "instanceUrl"), clientId: text(form, "clientId"), clientSecret: String(form.get("clientSecret") ?? "") };
    }
    if (captureMode !== "" && captureMode !== source.captureMode) edit.captureMode = captureMode as "compare" | "xmin" | "cdc" | "modified_since";
    setPending(true);
    setError(null);
    try {
      await trpc.sources.edit.mutate(edit);
      setOpen(false);
      router.refresh();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }

  async function checkModes() {
    setModesError(null);
    try {
      const check = await trpc.sources.testSavedConnection.mutate({ organizationId: source.organizationId, sourceId: source.id });
      if (check.ok) setModes(check.captureModes);
      else setModesError(check.reason);
    } catch (caught) {
      setModesError(describeError(caught).message);
    }
  }

  const pg = connection?.kind === "postgres_table" ? connection : null;
  /** The stored connection with the form's changes; the server refuses a new destination without the password (D360). */
  const discover: Discover = (fields) =>
    trpc.sources.discoverSaved.mutate({
      organizationId: source.organizationId,
      sourceId: source.id,
      connection: { ...fields, password: fields.password || undefined },
    });
  const crm = connection?.kind === "crm_object" ? connection : null;
  // D360: a changed destination needs its secret again (the server refuses the edit without it).
  const onFormChange = (event: React.FormEvent<HTMLFormElement>) => {
    const form = new FormData(event.currentTarget);
    if (pg)
      setSecretNeeded(
        pg.hasPassword &&
          (text(form, "host") !== pg.host ||
            Number(text(form, "port")) !== pg.port ||
            text(form, "database") !== pg.database ||
            text(form, "user") !== pg.user),
      );
    else if (crm) setSecretNeeded(text(form, "instanceUrl") !== crm.instanceUrl || text(form, "clientId") !== crm.clientId);
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        setError(null);
        setSecretNeeded(false);
      }}
    >
      <DialogTrigger asChild>
        <Button variant="outline">
          <Pencil aria-hidden /> {label}
        </Button>
      </DialogTrigger>
      <DialogContent
        title={`Edit “${source.name}”`}
        description="A changed connection is tested before it is saved. Secrets are never shown: leave them blank to keep them."
      >
        <form onSubmit={(e) => void onSubmit(e)} onChange={onFormChange} className="space-y-3" aria-label="Edit data source" autoComplete="off">
          <Field id="edit-name" label="Name">
            <Input id="edit-name" name="name" required maxLength={200} defaultValue={source.name} />
          </Field>
          {source.kind !== "csv" ? (
            <Field id="edit-schedule" label="Schedule">
              <Select id="edit-schedule" name="schedule" defaultValue={current}>
                {schedules.map(([value, label]) => (
                  <option key={value} value={value}>
                    {label}
                  </option>
                ))}
              </Select>
            </Field>
          ) : null}
          {source.kind === "crm_object" ? (
            <div className="space-y-2 rounded-md border border-slate-200 p-3">
              <p className="text-sm">
                Now: <strong>{captureModeLabel(source.captureMode)}</strong>
              </p>
              <CaptureModeField
                name="editCaptureMode"
                modes={modes}
                value={captureMode}
                onChange={setCaptureMode}
                allowAutomatic={source.captureMode === null}
                current={source.captureMode}
              />
              <Button type="button" variant="outline" onClick={() => void checkModes()}>
                Test connection for capture modes
              </Button>
              {modesError ? <Alert title="Connection failed">{modesError}</Alert> : null}
            </div>
          ) : null}
          {connection?.kind === "unreadable" ? (
            <Alert tone="warning" title="Stored connection unreadable">
              {connection.reason}. Create a new source with the connection.
            </Alert>
          ) : null}
          {source.kind === "postgres_table" && pg ? (
            <>
              <p className="text-sm">
                Capture mode now: <strong>{captureModeLabel(source.captureMode)}</strong>
              </p>
              <PostgresSourceFields
                idPrefix="edit"
                discover={discover}
                initial={pg}
                fixed={{ table: String(config.table), keyColumn: String(config.keyColumn) }}
                initialConfig={{
                  orderColumn: typeof config.orderColumn === "string" ? config.orderColumn : null,
                  columns: Array.isArray(config.columns) ? config.columns.map(String) : null,
                }}
                passwordHint={secretNeeded ? SECRET_NEEDED.password : pg.hasPassword ? "Stored. Leave blank to keep it." : "None stored."}
                passwordRequired={secretNeeded}
                captureMode={captureMode}
                onCaptureMode={setCaptureMode}
                captureModeName="editCaptureMode"
                currentCaptureMode={source.captureMode}
              />
            </>
          ) : null}
          {source.kind === "crm_object" && crm ? (
            <>
              <Fixed label="Object" value={String(config.object)} />
              <div className="grid gap-3 sm:grid-cols-2">
                <Field id="edit-instance" label="Instance URL">
                  <Input id="edit-instance" name="instanceUrl" type="url" required defaultValue={crm.instanceUrl} />
                </Field>
                <Field id="edit-client-id" label="Client id">
                  <Input id="edit-client-id" name="clientId" required defaultValue={crm.clientId} />
                </Field>
                <Field id="edit-client-secret" label="Client secret" hint={secretNeeded ? SECRET_NEEDED.clientSecret : "Stored. Leave blank to keep it."}>
                  <Input
                    id="edit-client-secret"
                    name="clientSecret"
                    type="password"
                    autoComplete="new-password"
                    required={secretNeeded}
                    placeholder={secretNeeded ? "required" : "unchanged"}
                  />
                </Field>
                <Field id="edit-fields" label="Fields (optional)" hint="Comma-separated; empty mirrors all.">
                  <Input id="edit-fields" name="fields" defaultValue={Array.isArray(config.fields) ? config.fields.join(", ") : ""} />
                </Field>
              </div>
            </>
          ) : null}
          <DialogFormFooter
            error={error}
            errorTitle="Not saved"
            submitLabel={pending ? "Testing and saving…" : "Save changes"}
            pending={pending}
            onCancel={() => setOpen(false)}
          />
        </form>
      </DialogContent>
    </Dialog>
  );
}

function Fixed({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-md bg-slate-50 px-3 py-2 text-sm">
      <p className="font-medium text-slate-700">{label}</p>
      <p className="break-all text-slate-900">
        <code>{value}</code>
      </p>
      <p className="mt-1 text-xs text-slate-500">Fixed: it defines what this source mirrors. To mirror another one, create a new source.</p>
    </div>
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
