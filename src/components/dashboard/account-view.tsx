"use client";

import { KeyRound, LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";

/** Your own password and sessions (D172). Both end every session, this one included. */
export function AccountView() {
  return (
    <div className="grid gap-6 lg:grid-cols-2">
      <ChangePassword />
      <SignOutEverywhere />
    </div>
  );
}

function Section({ title, description, children }: { title: string; description: string; children: React.ReactNode }) {
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-5" aria-labelledby={title.replace(/\W+/g, "-")}>
      <h2 id={title.replace(/\W+/g, "-")} className="text-base font-semibold text-slate-900">
        {title}
      </h2>
      <p className="mt-1 text-sm text-slate-600">{description}</p>
      <div className="mt-4">{children}</div>
    </section>
  );
}

function ChangePassword() {
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const newPassword = String(form.get("newPassword") ?? "");
    if (newPassword !== String(form.get("confirmPassword") ?? "")) {
      setError({ message: "The two new passwords differ.", requestId: null });
      return;
    }
    setPending(true);
    setError(null);
    try {
      await trpc.viewer.changePassword.mutate({ currentPassword: String(form.get("currentPassword") ?? ""), newPassword });
      await signOut({ callbackUrl: "/sign-in?changed=1" });
    } catch (caught) {
      setError(describeError(caught));
      setPending(false);
    }
  }
  return (
    <Section
      title="Change password"
      description="Your current password is required. Every session ends afterwards, this one included: sign in again with the new password."
    >
      <form onSubmit={onSubmit} className="space-y-4">
        <div className="space-y-1.5">
          <Label htmlFor="current-password">Current password</Label>
          <Input id="current-password" name="currentPassword" type="password" autoComplete="current-password" required />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="new-password">New password (at least 12 characters)</Label>
          <Input id="new-password" name="newPassword" type="password" autoComplete="new-password" minLength={12} required />
        </div>
        <div className="space-y-1.5">
          <Label htmlFor="confirm-password">New password again</Label>
          <Input id="confirm-password" name="confirmPassword" type="password" autoComplete="new-password" minLength={12} required />
        </div>
        {error ? (
          <Alert title="Password not changed" requestId={error.requestId}>
            {error.message}
          </Alert>
        ) : null}
        <Button type="submit" disabled={pending}>
          <KeyRound aria-hidden /> {pending ? "Changing…" : "Change password"}
        </Button>
      </form>
    </Section>
  );
}

function SignOutEverywhere() {
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);
  async function run() {
    setPending(true);
    setError(null);
    try {
      await trpc.viewer.signOutEverywhere.mutate();
      await signOut({ callbackUrl: "/sign-in" });
    } catch (caught) {
      setError(describeError(caught));
      setPending(false);
    }
  }
  return (
    <Section
      title="Sign out everywhere"
      description="Ends every session of your account on every browser and device, this one included. Use it when a device was lost or shared."
    >
      {error ? (
        <div className="mb-4">
          <Alert title="Not signed out" requestId={error.requestId}>
            {error.message}
          </Alert>
        </div>
      ) : null}
      <Button variant="destructive" disabled={pending} onClick={() => void run()}>
        <LogOut aria-hidden /> {pending ? "Signing out…" : "Sign out everywhere"}
      </Button>
    </Section>
  );
}
