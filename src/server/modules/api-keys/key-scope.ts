/**
 * Which keys a caller may see or act on. Every key function takes one, so no call can reach a
 * key outside it by accident (an empty organization id no longer means "every key"):
 * - `organization`: the keys bound to that organization;
 * - `instance`: instance-scoped keys, plus the revoked keys of deleted organizations (D14);
 * - `operator`: everything, for the shell operator (the CLI), who runs the instance.
 */
export type KeyScope = { kind: "organization"; organizationId: string } | { kind: "instance" } | { kind: "operator" };

export function keyScopeWhere(scope: KeyScope): { organizationId?: string | null } {
  switch (scope.kind) {
    case "organization":
      return { organizationId: scope.organizationId };
    case "instance":
      return { organizationId: null };
    case "operator":
      return {};
  }
}

export function keyInScope(key: { organizationId: string | null }, scope: KeyScope): boolean {
  if (scope.kind === "operator") return true;
  if (scope.kind === "instance") return key.organizationId === null;
  return key.organizationId === scope.organizationId;
}
