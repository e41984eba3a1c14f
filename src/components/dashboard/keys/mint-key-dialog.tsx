"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogFormFooter } from "@/components/ui/dialog";
import { Input, Label, Select } from "@/components/ui/input";
import { useOneTimeSecret } from "@/components/ui/one-time-secret";
import { describeError, trpc, type ShownError } from "@/lib/trpc-client";
import { ScopeGrid } from "./scope-grid";
import { TokenReveal } from "./token-reveal";
import type { KeyRow, MintDefaults } from "./types";

interface Props {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  /** null: the instance tab; the binding is then always instance-scoped. */
  organizationId: string | null;
  organizationName: string | null;
  /** Owners may bind a key to the instance from an organization's page too. */
  canMintInstance: boolean;
  defaults: MintDefaults;
  onMinted: (key: KeyRow) => void;
}

const revokeOldIn = (value: FormDataEntryValue | null) => (value === "1h" || value === "24h" || value === "7d" ? value : null);

export function MintKeyDialog({ open, onOpenChange, organizationId, organizationName, canMintInstance, defaults, onMinted }: Props) {
  const [scopes, setScopes] = useState<string[]>(defaults.scopes);
  const [token, setToken] = useState<string | null>(null);
  const [error, setError] = useState<ShownError | null>(null);
  const [pending, setPending] = useState(false);

  async function onSubmit(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const binding = String(form.get("binding") ?? "organization");
    const expires = String(form.get("expiresAt") ?? "");
    setPending(true);
    setError(null);
    try {
      const minted = await trpc.keys.mint.mutate({
        organizationId: binding === "instance" ? null : organizationId,
        name: String(form.get("name") ?? ""),
        environment: form.get("environment") === "test" ? "test" : "live",
        scopes,
        expiresAt: expires ? new Date(expires).toISOString() : null,
        rateLimit: Number(form.get("rateLimit")),
        rotates: defaults.rotatingKeyId ? { keyId: defaults.rotatingKeyId, revokeOldIn: revokeOldIn(form.get("revokeOld")) } : undefined,
      });
      setToken(minted.token);
      onMinted(minted.key);
    } catch (caught) {
      setError(describeError(caught));
    } finally {
      setPending(false);
    }
  }

  const close = (next: boolean) => {
    if (!next) setToken(null);
    onOpenChange(next);
  };
  // While the token is shown, Esc, the corner's Close and a click outside ask first (D520).
  const guard = useOneTimeSecret(token, () => close(false));

  return (
    <Dialog open={open} onOpenChange={(next) => (next ? close(true) : guard.requestClose())}>
      <DialogContent
        onEscapeKeyDown={guard.onEscapeKeyDown}
        title={token ? "Your new API key" : defaults.rotatingKeyId ? "Rotate: mint the replacement key" : "Mint an API key"}
        description={
          token
            ? undefined
            : defaults.rotatingKeyId
              ? "Same scopes and rate budget as the key being rotated. Switch your integration to the new key, then watch the old one stop being used before revoking it."
              : "Keys cannot be edited later: to change anything, mint a new key and revoke the old one."
        }
        className="max-w-2xl"
      >
        {token ? (
          <div className="space-y-4">
            <TokenReveal token={token} guard={guard} />
            <div className="flex justify-end">
              <Button onClick={() => close(false)}>I have copied it</Button>
            </div>
          </div>
        ) : (
          <form onSubmit={onSubmit} className="space-y-4">
            <div className="grid gap-4 sm:grid-cols-2">
              <div className="space-y-1.5 sm:col-span-2">
                <Label htmlFor="key-name">Name</Label>
                <Input id="key-name" name="name" defaultValue={defaults.name} required maxLength={200} placeholder="e.g. Mobile app sync" />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="key-binding">Binding</Label>
                <Select
                  id="key-binding"
                  name="binding"
                  defaultValue={organizationId ? "organization" : "instance"}
                  disabled={!organizationId || !canMintInstance}
                >
                  {organizationId ? <option value="organization">This organization: {organizationName}</option> : null}
                  {canMintInstance || !organizationId ? <option value="instance">Instance (every organization)</option> : null}
                </Select>
                {!organizationId ? <input type="hidden" name="binding" value="instance" /> : null}
              </div>
              <fieldset className="space-y-1.5">
                <legend className="text-sm font-medium text-slate-800">Environment</legend>
                <div className="flex h-9 items-center gap-4 text-sm">
                  {(["live", "test"] as const).map((env) => (
                    <label key={env} className="flex items-center gap-1.5">
                      <input type="radio" name="environment" value={env} defaultChecked={defaults.environment === env} className="accent-slate-900" />
                      {env}
                    </label>
                  ))}
                </div>
              </fieldset>
              <div className="space-y-1.5">
                <Label htmlFor="key-expires">Expires (optional)</Label>
                <Input id="key-expires" name="expiresAt" type="datetime-local" />
              </div>
              <div className="space-y-1.5">
                <Label htmlFor="key-rate">Rate budget (requests per minute)</Label>
                <Input id="key-rate" name="rateLimit" type="number" min={1} max={1_000_000} step={1} defaultValue={defaults.rateLimit} required />
              </div>
            </div>
            <ScopeGrid value={scopes} onChange={setScopes} />
            {defaults.rotatingKeyId ? (
              <div className="space-y-1.5">
                <Label htmlFor="key-revoke-old">Revoke the old key</Label>
                <Select id="key-revoke-old" name="revokeOld" defaultValue="">
                  <option value="">Later, by hand</option>
                  <option value="1h">In 1 hour</option>
                  <option value="24h">In 24 hours</option>
                  <option value="7d">In 7 days</option>
                </Select>
                <p className="text-xs text-slate-600">A scheduled revocation can be cancelled on the old key&apos;s page until its time.</p>
              </div>
            ) : null}
            <DialogFormFooter
              error={error}
              errorTitle="The key was not minted"
              submitLabel={pending ? "Minting…" : "Mint key"}
              pending={pending}
              onCancel={() => close(false)}
            />
          </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
