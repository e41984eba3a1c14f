"use client";

import { UserPlus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { OneTimeSecret, useOneTimeSecret } from "@/components/ui/one-time-secret";
import { Dialog, DialogContent, DialogFormFooter } from "@/components/ui/dialog";
import { Input, Label, Select } from "@/components/ui/input";
import { Table, TBody, TD, TH, THead, TR } from "@/components/ui/table";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { OrganizationPicker } from "./organization-picker";
import { UserActions } from "./user-actions";

interface UserRow {
  id: string;
  email: string;
  name: string | null;
  instanceRole: "none" | "support" | "owner";
  disabled: boolean;
  lockedAddresses: number;
  openSessions: number;
  memberships: { organizationId: string; organizationName: string; role: "admin" | "member" }[];
}

const roleNames = { owner: "Instance owner", support: "Support", none: "—" };

export function UsersView({ users, isOwner, viewerId }: { users: UserRow[]; isOwner: boolean; viewerId: string }) {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  return (
    <div>
      {isOwner ? (
        <div className="mb-4 flex justify-end">
          <Button onClick={() => setOpen(true)}>
            <UserPlus aria-hidden /> New user
          </Button>
        </div>
      ) : null}
      {/* Phones get one card per account (the table would hide its actions off-screen). */}
      <ul className="space-y-3 md:hidden" aria-label="Users">
        {users.map((user) => (
          <li key={user.id} data-testid="user-entry" className="rounded-lg border border-slate-200 bg-white p-4">
            <p className="font-medium break-all text-slate-900">{user.name ?? user.email}</p>
            {user.name ? <p className="text-xs break-all text-slate-500">{user.email}</p> : null}
            <p className="mt-1 text-sm text-slate-600">{user.instanceRole === "none" ? "No instance role" : roleNames[user.instanceRole]}</p>
            <div className="mt-2 text-sm">
              <Memberships user={user} />
            </div>
            <div className="mt-2">
              <SignInState user={user} />
            </div>
            {isOwner ? (
              <div className="mt-3 border-t border-slate-100 pt-3">
                <UserActions user={user} isSelf={user.id === viewerId} />
              </div>
            ) : null}
          </li>
        ))}
      </ul>
      <Table aria-label="Users" wrapperClassName="hidden md:block">
        <THead>
          <TR>
            <TH>User</TH>
            <TH>Instance role</TH>
            <TH>Organizations</TH>
            <TH>Sign-in</TH>
            {isOwner ? <TH>Actions</TH> : null}
          </TR>
        </THead>
        <TBody>
          {users.map((user) => (
            <TR key={user.id} data-testid="user-entry">
              <TD>
                <p className="font-medium text-slate-900">{user.name ?? user.email}</p>
                {user.name ? <p className="text-xs text-slate-500">{user.email}</p> : null}
              </TD>
              <TD>{roleNames[user.instanceRole]}</TD>
              <TD>
                <Memberships user={user} />
              </TD>
              <TD>
                <SignInState user={user} />
              </TD>
              {isOwner ? (
                <TD>
                  <UserActions user={user} isSelf={user.id === viewerId} />
                </TD>
              ) : null}
            </TR>
          ))}
        </TBody>
      </Table>
      {open ? (
        <CreateUserDialog
          onClose={() => {
            setOpen(false);
            router.refresh();
          }}
        />
      ) : null}
    </div>
  );
}

function Memberships({ user }: { user: UserRow }) {
  if (user.memberships.length === 0) return <span className="text-slate-500">No organizations</span>;
  return (
    <ul className="space-y-0.5">
      {user.memberships.map((m) => (
        <li key={m.organizationId}>
          {m.organizationName} <span className="text-slate-500">({m.role})</span>
        </li>
      ))}
    </ul>
  );
}

function SignInState({ user }: { user: UserRow }) {
  return (
    <>
      <div className="flex flex-wrap items-center gap-1.5">
        {user.disabled ? <Badge tone="red">disabled</Badge> : <Badge tone="green">enabled</Badge>}
        {user.lockedAddresses > 0 ? (
          <Badge tone="amber">
            locked from {user.lockedAddresses} address{user.lockedAddresses === 1 ? "" : "es"}
          </Badge>
        ) : null}
      </div>
      <p className="mt-1 text-xs text-slate-500">
        {user.openSessions === 0 ? "no open sessions" : `${user.openSessions} open session${user.openSessions === 1 ? "" : "s"}`}
      </p>
    </>
  );
}

function CreateUserDialog({ onClose }: { onClose: () => void }) {
  const [created, setCreated] = useState<{ email: string; password: string } | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  // The generated password is shown once: closing it unsaved asks first (D520).
  const guard = useOneTimeSecret(created?.password ?? null, onClose);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const organizationId = String(form.get("organizationId") ?? "");
    const role = form.get("instanceRole");
    setPending(true);
    setError(null);
    try {
      const user = await trpc.users.create.mutate({
        email: String(form.get("email") ?? ""),
        name: String(form.get("name") ?? "") || undefined,
        instanceRole: role === "owner" || role === "support" ? role : "none",
        membership: organizationId ? { organizationId, role: form.get("orgRole") === "admin" ? "admin" : "member" } : null,
      });
      setCreated({ email: user.email, password: user.password });
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }
  return (
    <Dialog open onOpenChange={(next) => !next && guard.requestClose()}>
      <DialogContent
        title={created ? "Account created" : "New user"}
        description={created ? undefined : "A password is generated and shown once; hand it to the person over a safe channel."}
        onEscapeKeyDown={guard.onEscapeKeyDown}
      >
        {created ? (
          <div className="space-y-3">
            <p className="text-sm">
              Email: <strong data-testid="created-email">{created.email}</strong>
            </p>
            <OneTimeSecret guard={guard} value={created.password} noun="password" testId="created-password" warningTitle="Copy this password now">
              It is shown only this once; only its hash is stored.
            </OneTimeSecret>
            <div className="flex justify-end">
              <Button onClick={onClose}>I have copied it</Button>
            </div>
          </div>
        ) : (
          <form onSubmit={onSubmit} className="space-y-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="space-y-1.5">
                <Label htmlFor="user-email">Email</Label>
                <Input id="user-email" name="email" type="email" required />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="user-name">Name (optional)</Label>
                <Input id="user-name" name="name" maxLength={200} />
              </div>
              <div className="sm:col-span-2">
                <OrganizationPicker id="user-org" name="organizationId" label="Add to organization (optional)" noneLabel="No organization" inline />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="user-instance-role">Instance role</Label>
                <Select id="user-instance-role" name="instanceRole" defaultValue="none" aria-describedby="user-instance-role-hint">
                  <option value="none">None</option>
                  <option value="support">Support</option>
                  <option value="owner">Instance owner</option>
                </Select>
                <p id="user-instance-role-hint" className="text-xs text-slate-500">
                  Support: read-only everywhere. Owner: everything.
                </p>
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="user-org-role">Organization role</Label>
                <Select id="user-org-role" name="orgRole" defaultValue="member">
                  <option value="member">member</option>
                  <option value="admin">admin</option>
                </Select>
              </div>
            </div>
            <DialogFormFooter error={error} errorTitle="Not created" submitLabel="Create user" pending={pending} onCancel={onClose} />
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
