"use client";

import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFormFooter } from "@/components/ui/dialog";
import { Input, Label } from "@/components/ui/input";
import { describeError, type ShownError } from "@/lib/trpc-client";
import { trpc } from "@/lib/trpc-client";
import type { FormRow } from "./types";

function useSubmit() {
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function run(action: () => Promise<void>) {
    setPending(true);
    setError(null);
    try {
      await action();
    } catch (caught) {
      setError(describeError(caught));
      setPending(false);
    }
  }
  return { error, pending, run };
}

function NameDialog(props: {
  title: string;
  initial?: string;
  submitLabel: string;
  errorTitle: string;
  onClose: () => void;
  onSubmit: (name: string) => Promise<void>;
}) {
  const { error, pending, run } = useSubmit();
  return (
    <Dialog open onOpenChange={(open) => !open && props.onClose()}>
      <DialogContent title={props.title}>
        <form
          className="space-y-4"
          onSubmit={(event) => {
            event.preventDefault();
            const name = String(new FormData(event.currentTarget).get("name") ?? "");
            void run(() => props.onSubmit(name));
          }}
        >
          <div className="space-y-1.5">
            <Label htmlFor="form-name">Name</Label>
            <Input id="form-name" name="name" required maxLength={200} defaultValue={props.initial} autoFocus />
          </div>
          <DialogFormFooter error={error} errorTitle={props.errorTitle} submitLabel={props.submitLabel} pending={pending} onCancel={props.onClose} />
        </form>
      </DialogContent>
    </Dialog>
  );
}

export function CreateFormDialog({ organizationId, onClose, onCreated }: { organizationId: string; onClose: () => void; onCreated: (id: string) => void }) {
  return (
    <NameDialog
      title="New form"
      submitLabel="Create form"
      errorTitle="Not created"
      onClose={onClose}
      onSubmit={async (name) => onCreated((await trpc.forms.create.mutate({ organizationId, name })).id)}
    />
  );
}

export function RenameFormDialog({
  organizationId,
  form,
  onClose,
  onDone,
}: {
  organizationId: string;
  form: FormRow;
  onClose: () => void;
  onDone: () => void;
}) {
  return (
    <NameDialog
      title={`Rename ${form.name}`}
      initial={form.name}
      submitLabel="Rename"
      errorTitle="Not renamed"
      onClose={onClose}
      onSubmit={async (name) => {
        await trpc.forms.rename.mutate({ organizationId, formId: form.id, name });
        onDone();
      }}
    />
  );
}

/** Only a form without records can go: records are field data and are never deleted as a side effect. */
export function DeleteFormDialog({
  organizationId,
  form,
  onClose,
  onDone,
}: {
  organizationId: string;
  form: FormRow;
  onClose: () => void;
  onDone: () => void;
}) {
  const { error, pending, run } = useSubmit();
  const blocked = form.records > 0;
  return (
    <Dialog open onOpenChange={(open) => !open && onClose()}>
      <DialogContent title={`Delete ${form.name}?`}>
        <div className="space-y-4">
          {blocked ? (
            <Alert tone="warning" title="This form cannot be deleted">
              It has {form.records.toLocaleString("en")} record{form.records === 1 ? "" : "s"}. Only a form without records can be deleted: records are
              submitted field data, and deleting a form never removes them. Keep the form, or rename it to show it is no longer in use.
            </Alert>
          ) : (
            <p className="text-sm text-slate-700">
              It has no records. Integrations that still post to its id will get 404 from then on. The deletion is audited.
            </p>
          )}
          {error ? (
            <Alert title="Not deleted" requestId={error.requestId}>
              {error.message}
            </Alert>
          ) : null}
          <div className="flex justify-end gap-2">
            <Button type="button" variant="outline" onClick={onClose}>
              {blocked ? "Close" : "Cancel"}
            </Button>
            {blocked ? null : (
              <Button
                variant="destructive"
                disabled={pending}
                onClick={() =>
                  void run(async () => {
                    await trpc.forms.delete.mutate({ organizationId, formId: form.id });
                    onDone();
                  })
                }
              >
                Delete form
              </Button>
            )}
          </div>
        </div>
      </DialogContent>
    </Dialog>
  );
}
