"use client";

import { Check, LogIn, UserPlus } from "lucide-react";
import { signIn, signOut } from "next-auth/react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useEffect, useRef, useState } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";

interface Preview {
  organizationName: string;
  email: string;
  role: "admin" | "member";
  expiresAt: string;
  signedInAs: string | null;
}

type Failure = { message: string; requestId: string | null };

const STORAGE_KEY = "groundwork.invitation";
const MIN_PASSWORD_LENGTH = 12;

async function post(body: Record<string, unknown>): Promise<{ ok: true; json: Record<string, unknown> } | { ok: false; failure: Failure }> {
  try {
    const res = await fetch("/api/invitation", { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const json = (await res.json().catch(() => ({}))) as Record<string, unknown> & { error?: { message?: string }; request_id?: string };
    if (res.ok) return { ok: true, json };
    return { ok: false, failure: { message: json.error?.message ?? `The server answered HTTP ${res.status}.`, requestId: json.request_id ?? null } };
  } catch {
    return { ok: false, failure: { message: "The server could not be reached. Try again.", requestId: null } };
  }
}

/**
 * The link's token lives in the fragment (never sent to a server, D472). It is moved to this
 * tab's sessionStorage and taken out of the address bar, so it stays out of the history and of
 * any address shared from here.
 */
function takeToken(): string | null {
  const fromHash = window.location.hash.replace(/^#/, "");
  if (fromHash) {
    sessionStorage.setItem(STORAGE_KEY, fromHash);
    window.history.replaceState(null, "", window.location.pathname);
    return fromHash;
  }
  return sessionStorage.getItem(STORAGE_KEY);
}

export function InvitationAccept() {
  const router = useRouter();
  const tokenRef = useRef<string | null>(null);
  const [state, setState] = useState<{ kind: "loading" } | { kind: "missing" } | { kind: "failed"; failure: Failure } | { kind: "ready"; preview: Preview }>({
    kind: "loading",
  });
  const [error, setError] = useState<Failure | null>(null);
  const [pending, setPending] = useState(false);

  useEffect(() => {
    const found = takeToken();
    tokenRef.current = found;
    const opened = found ? post({ action: "open", token: found }) : Promise.resolve(null);
    void opened.then((result) => {
      if (!result) setState({ kind: "missing" });
      else if (result.ok) setState({ kind: "ready", preview: result.json as unknown as Preview });
      else setState({ kind: "failed", failure: result.failure });
    });
  }, []);

  function joined(organizationId: string) {
    sessionStorage.removeItem(STORAGE_KEY);
    router.replace(`/dashboard/organizations/${organizationId}`);
    router.refresh();
  }

  async function createAccount(event: React.FormEvent<HTMLFormElement>, preview: Preview) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = String(form.get("password") ?? "");
    setError(null);
    if (password.length < MIN_PASSWORD_LENGTH)
      return setError({ message: `Choose a password of at least ${MIN_PASSWORD_LENGTH} characters.`, requestId: null });
    if (password !== String(form.get("confirm") ?? "")) return setError({ message: "The two passwords differ.", requestId: null });
    setPending(true);
    const result = await post({ action: "accept_new", token: tokenRef.current, password, name: String(form.get("name") ?? "") || undefined });
    if (!result.ok) {
      setPending(false);
      return setError(result.failure);
    }
    const signedIn = await signIn("credentials", { email: preview.email, password, redirect: false }).catch(() => undefined);
    setPending(false);
    if (signedIn?.ok && !signedIn.error) return joined(String(result.json.organizationId));
    sessionStorage.removeItem(STORAGE_KEY);
    router.replace("/sign-in");
  }

  async function acceptSignedIn() {
    setPending(true);
    setError(null);
    const result = await post({ action: "accept_signed_in", token: tokenRef.current });
    setPending(false);
    if (result.ok) joined(String(result.json.organizationId));
    else setError(result.failure);
  }

  if (state.kind === "loading")
    return (
      <p className="text-sm text-slate-600" role="status">
        Checking the invitation…
      </p>
    );
  if (state.kind === "missing") {
    return <Alert title="No invitation in this link">Open the link from your invitation mail exactly as it was sent, or ask for a new invitation.</Alert>;
  }
  if (state.kind === "failed") {
    return (
      <Alert title="This link does not work" requestId={state.failure.requestId}>
        {state.failure.message}
      </Alert>
    );
  }
  const { preview } = state;
  const expires = new Date(preview.expiresAt).toLocaleString();
  const sameAccount = preview.signedInAs !== null && preview.signedInAs.toLowerCase() === preview.email.toLowerCase();
  return (
    <div className="space-y-5">
      <div>
        <h2 className="text-lg font-semibold text-slate-900">
          Join {preview.organizationName} as {preview.role}
        </h2>
        <p className="mt-1 text-sm [overflow-wrap:anywhere] text-slate-600">
          For {preview.email}. The link works once and expires {expires}.
        </p>
      </div>
      {error ? (
        <Alert title="Not joined" requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      {sameAccount ? (
        <Button className="w-full" disabled={pending} onClick={() => void acceptSignedIn()}>
          <Check aria-hidden /> Accept as {preview.email}
        </Button>
      ) : preview.signedInAs ? (
        <div className="space-y-3">
          <p className="text-sm [overflow-wrap:anywhere] text-slate-700">
            You are signed in as {preview.signedInAs}, and this invitation is for {preview.email}. Sign out, then open the link again.
          </p>
          <Button variant="outline" onClick={() => void signOut({ callbackUrl: "/invitation" })}>
            Sign out
          </Button>
        </div>
      ) : (
        <>
          <form onSubmit={(event) => void createAccount(event, preview)} className="space-y-3" aria-labelledby="new-account-heading" noValidate>
            <h3 id="new-account-heading" className="text-sm font-semibold text-slate-900">
              New here? Set a password
            </h3>
            <div className="space-y-1.5">
              <Label htmlFor="invite-name">Your name (optional)</Label>
              <Input id="invite-name" name="name" autoComplete="name" maxLength={200} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="invite-password">Password (at least {MIN_PASSWORD_LENGTH} characters)</Label>
              <Input id="invite-password" name="password" type="password" autoComplete="new-password" required minLength={MIN_PASSWORD_LENGTH} />
            </div>
            <div className="space-y-1.5">
              <Label htmlFor="invite-confirm">Password again</Label>
              <Input id="invite-confirm" name="confirm" type="password" autoComplete="new-password" required />
            </div>
            <Button type="submit" className="w-full" disabled={pending}>
              <UserPlus aria-hidden /> {pending ? "Joining…" : "Create account and join"}
            </Button>
          </form>
          <div className="border-t border-slate-200 pt-4 text-sm text-slate-700">
            <p>Already have an account with {preview.email}?</p>
            <Link href="/sign-in" className="mt-2 inline-flex items-center gap-1.5 font-medium text-blue-700 hover:underline">
              <LogIn className="size-4" aria-hidden /> Sign in, then accept on your overview
            </Link>
          </div>
        </>
      )}
    </div>
  );
}
