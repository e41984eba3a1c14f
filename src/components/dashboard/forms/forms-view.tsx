"use client";

import { Pencil, Plus, Trash2 } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/card";
import { RelativeTime } from "@/components/ui/relative-time";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { CreateFormDialog, DeleteFormDialog, RenameFormDialog } from "./form-dialogs";
import type { FormRow } from "./types";

/** An organization's forms: record counts, latest record; admins and owners create, rename, delete. */
export function FormsView({ organizationId, forms, canManage }: { organizationId: string; forms: FormRow[]; canManage: boolean }) {
  const router = useRouter();
  const [creating, setCreating] = useState(false);
  const [renaming, setRenaming] = useState<FormRow | null>(null);
  const [deleting, setDeleting] = useState<FormRow | null>(null);
  const done = () => {
    setRenaming(null);
    setDeleting(null);
    router.refresh();
  };
  return (
    <div className="space-y-4">
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <p className="text-sm text-slate-600">Forms collect records from devices and integrations (POST …/forms/&#123;form&#125;/records).</p>
        {canManage ? (
          <Button onClick={() => setCreating(true)}>
            <Plus aria-hidden /> New form
          </Button>
        ) : null}
      </div>
      {forms.length === 0 ? (
        <EmptyState title="No forms yet">
          {canManage ? "Create a form, then post records to it with an API key that has records:write." : "An admin of this organization creates forms."}
        </EmptyState>
      ) : (
        <>
          <ul className="space-y-3 md:hidden" aria-label="Forms (compact)">
            {forms.map((form) => (
              <li key={form.id} data-testid="form-card" className="rounded-lg border border-slate-200 bg-white p-3">
                <Link href={`/dashboard/organizations/${organizationId}/forms/${form.id}`} className="font-medium text-blue-800 hover:underline">
                  {form.name}
                </Link>
                <p className="mt-1 text-sm text-slate-700">
                  {form.records.toLocaleString("en")} record{form.records === 1 ? "" : "s"}
                  {form.latestRecordAt ? (
                    <>
                      , latest <RelativeTime iso={form.latestRecordAt} />
                    </>
                  ) : null}
                </p>
                <code className="mt-1 block text-xs break-all text-slate-600">{form.id}</code>
                {canManage ? (
                  <div className="mt-2 flex gap-2">
                    <Button variant="outline" size="sm" aria-label={`Rename ${form.name}`} onClick={() => setRenaming(form)}>
                      <Pencil aria-hidden /> Rename
                    </Button>
                    <Button variant="outline" size="sm" className="text-red-700" aria-label={`Delete ${form.name}`} onClick={() => setDeleting(form)}>
                      <Trash2 aria-hidden /> Delete
                    </Button>
                  </div>
                ) : null}
              </li>
            ))}
          </ul>
          <Table aria-label="Forms" wrapperClassName="hidden md:block">
            <THead>
              <TR>
                <TH>Name</TH>
                <TH>Records</TH>
                <TH>Latest record</TH>
                <TH>Form id</TH>
                {canManage ? <TH className="text-right">Actions</TH> : null}
              </TR>
            </THead>
            <TBody>
              {forms.map((form) => (
                <TR key={form.id} data-testid="form-row">
                  <TD>
                    <Link href={`/dashboard/organizations/${organizationId}/forms/${form.id}`} className="font-medium text-blue-800 hover:underline">
                      {form.name}
                    </Link>
                  </TD>
                  <TD data-testid="form-records">{form.records.toLocaleString("en")}</TD>
                  <TD className="whitespace-nowrap">
                    {form.latestRecordAt ? <RelativeTime iso={form.latestRecordAt} /> : <span className="text-slate-600">none yet</span>}
                  </TD>
                  <TD>
                    <code className="text-xs break-all text-slate-600">{form.id}</code>
                  </TD>
                  {canManage ? (
                    <TD className="text-right whitespace-nowrap">
                      <Button variant="ghost" size="sm" aria-label={`Rename ${form.name}`} onClick={() => setRenaming(form)}>
                        <Pencil aria-hidden /> Rename
                      </Button>
                      <Button
                        variant="ghost"
                        size="sm"
                        className="text-red-700 hover:bg-red-50"
                        aria-label={`Delete ${form.name}`}
                        onClick={() => setDeleting(form)}
                      >
                        <Trash2 aria-hidden /> Delete
                      </Button>
                    </TD>
                  ) : null}
                </TR>
              ))}
            </TBody>
          </Table>
        </>
      )}
      {!canManage ? <p className="text-xs text-slate-600">Read-only: only this organization&apos;s admins and instance owners change forms.</p> : null}
      {creating ? (
        <CreateFormDialog
          organizationId={organizationId}
          onClose={() => setCreating(false)}
          onCreated={(id) => router.push(`/dashboard/organizations/${organizationId}/forms/${id}`)}
        />
      ) : null}
      {renaming ? <RenameFormDialog organizationId={organizationId} form={renaming} onClose={() => setRenaming(null)} onDone={done} /> : null}
      {deleting ? <DeleteFormDialog organizationId={organizationId} form={deleting} onClose={() => setDeleting(null)} onDone={done} /> : null}
    </div>
  );
}
