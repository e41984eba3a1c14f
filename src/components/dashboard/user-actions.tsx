"use client";

import { Ban, CheckCircle2, KeyRound, LockOpen } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { OneTimeSecret, useOneTimeSecret } from "@/components/ui/one-time-secret";
import { Dialog, DialogContent } from "@/components/ui/dialog";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";

export interface LifecycleTarget {
  id: string;
  email: string;
  disabled: boolean;
  lockedAddresses: number;
  openSessions: number;
}

type Action = "disable" | "enable" | "reset" | "unlock";

const copy: Record<Action, { title: string; confirm: string; body: (user: LifecycleTarget) => string }> = {
  disable: {
    title: "Disable account",
    confirm: "Disable",
    body: (u) =>
      `${u.email} will not be able to sign in${
        u.openSessions === 0
          ? ""
          : u.openSessions === 1
            ? ", and its open session ends on its next request"
            : `, and its ${u.openSessions} open sessions end on their next request`
      }. You can enable it again later.`,
  },
  enable: { title: "Enable account", confirm: "Enable", body: (u) => `${u.email} will be able to sign in again with its current password.` },
  reset: {
    title: "Reset password",
    confirm: "Reset password",
    body: (u) =>
      `A new password is generated for ${u.email} and shown to you once. The old one stops working, every session of this account ends and its sign-in locks are lifted.`,
  },
  unlock: {
    title: "Unlock account",
    confirm: "Unlock",
    body: (u) => `Lifts the sign-in lock of ${u.email} from every address (${u.lockedAddresses} locked now).`,
  },
};

/** An owner's buttons for one account (D172); the server checks the role again on each. */
export function UserActions({ user, isSelf }: { user: LifecycleTarget; isSelf: boolean }) {
  const [action, setAction] = useState<Action | null>(null);
  return (
    <div className="flex flex-wrap gap-1.5">
      {user.disabled ? (
        <Button size="sm" variant="outline" onClick={() => setAction("enable")} aria-label={`Enable ${user.email}`}>
          <CheckCircle2 aria-hidden /> Enable
        </Button>
      ) : isSelf ? null : (
        <Button size="sm" variant="outline" onClick={() => setAction("disable")} aria-label={`Disable ${user.email}`}>
          <Ban aria-hidden /> Disable
        </Button>
      )}
      <Button size="sm" variant="outline" onClick={() => setAction("reset")} aria-label={`Reset password of ${user.email}`}>
        <KeyRound aria-hidden /> Reset password
      </Button>
      {user.lockedAddresses > 0 ? (
        <Button size="sm" variant="outline" onClick={() => setAction("unlock")} aria-label={`Unlock ${user.email}`}>
          <LockOpen aria-hidden /> Unlock
        </Button>
      ) : null}
      {action ? <ActionDialog action={action} user={user} onClose={() => setAction(null)} /> : null}
    </div>
  );
}

function ActionDialog({ action, user, onClose }: { action: Action; user: LifecycleTarget; onClose: () => void }) {
  const router = useRouter();
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<ShownError | null>(null);
  const [password, setPassword] = useState<string | null>(null);
  const close = () => {
    onClose();
    router.refresh();
  };
  // A new password is shown once: closing it unsaved asks first (D520).
  const guard = useOneTimeSecret(password, close);
  async function run() {
    setPending(true);
    setError(null);
    try {
      const input = { userId: user.id };
      if (action === "disable") await trpc.users.disable.mutate(input);
      if (action === "enable") await trpc.users.enable.mutate(input);
      if (action === "unlock") await trpc.users.unlock.mutate(input);
      if (action === "reset") {
        setPassword((await trpc.users.resetPassword.mutate(input)).password);
        return;
      }
      close();
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }
  const text = copy[action];
  return (
    <Dialog open onOpenChange={(next) => !next && guard.requestClose()}>
      <DialogContent
        title={password ? "New password" : text.title}
        description={password ? undefined : text.body(user)}
        onEscapeKeyDown={guard.onEscapeKeyDown}
      >
        {password ? (
          <div className="space-y-3">
            <p className="text-sm">
              Email: <strong>{user.email}</strong>
            </p>
            <OneTimeSecret guard={guard} value={password} noun="password" testId="reset-password" warningTitle="Copy this password now">
              It is shown only this once; only its hash is stored. Hand it to the person over a safe channel.
            </OneTimeSecret>
            <div className="flex justify-end">
              <Button onClick={close}>I have copied it</Button>
            </div>
          </div>
        ) : (
          <div className="space-y-4">
            {error ? (
              <Alert title={`Not done: ${text.title.toLowerCase()}`} requestId={error.requestId}>
                {error.message}
              </Alert>
            ) : null}
            <div className="flex justify-end gap-2">
              <Button type="button" variant="outline" onClick={close}>
                Cancel
              </Button>
              <Button
                type="button"
                variant={action === "disable" || action === "reset" ? "destructive" : "default"}
                disabled={pending}
                onClick={() => void run()}
              >
                {pending ? "Working…" : text.confirm}
              </Button>
            </div>
          </div>
        )}
      </DialogContent>
    </Dialog>
  );
}
