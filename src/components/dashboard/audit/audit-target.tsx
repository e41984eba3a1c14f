import Link from "next/link";
import type { AuditEvent } from "../requests/types";

const TYPE_LABELS: Record<string, string> = {
  api_key: "API key",
  data_source: "Source",
  user: "User",
  form: "Form",
  organization: "Organization",
  invitation: "Invitation",
  alert_channel: "Alert channel",
  alert_rule: "Alert rule",
  backup: "Backup",
  backup_alert_rule: "Backup alert rule",
  address: "Client address",
};

const targetTypeLabel = (type: string) => TYPE_LABELS[type] ?? type;

/** The page of an audit event's target while it still exists (D441); null when it is gone or has no page. */
function auditTargetHref(e: Pick<AuditEvent, "targetType" | "targetId" | "targetExists" | "targetOrganizationId" | "organizationId">): string | null {
  if (!e.targetExists) return null;
  const org = e.targetOrganizationId;
  const id = encodeURIComponent(e.targetId);
  switch (e.targetType) {
    case "api_key":
      return org ? `/dashboard/organizations/${org}/keys/${id}` : `/dashboard/instance/keys/${id}`;
    case "data_source":
      return org ? `/dashboard/organizations/${org}/sources/${id}` : null;
    case "form":
      return org ? `/dashboard/organizations/${org}/forms/${id}` : null;
    case "organization":
      return `/dashboard/organizations/${id}`;
    case "user":
      // A member's event: the organization's members; an account's: the users page.
      return e.organizationId ? `/dashboard/organizations/${e.organizationId}/members` : "/dashboard/users";
    case "invitation":
      return org ? `/dashboard/organizations/${org}/members` : null;
    case "alert_channel":
      return org ? `/dashboard/organizations/${org}/alerts` : "/dashboard/instance/alerts";
    default:
      return null;
  }
}

/** An audit event's target: its name as of the event, linked while it exists, then its type and id. */
export function AuditTarget({ event: e, compact = false }: { event: AuditEvent; compact?: boolean }) {
  const href = auditTargetHref(e);
  const name = e.targetLabel ?? e.targetId;
  return (
    <span className="block min-w-0" data-testid="audit-target">
      <span className="text-xs text-slate-600">{targetTypeLabel(e.targetType)} </span>
      {href ? (
        <Link href={href} className="font-medium break-words text-blue-700 underline" data-testid="audit-target-link">
          {name}
        </Link>
      ) : (
        <span className="font-medium break-words text-slate-900" data-testid="audit-target-name">
          {name}
        </span>
      )}
      {e.targetLabelAsOf === "now" ? <span className="text-xs text-slate-600"> (name now)</span> : null}
      {e.targetExists === false ? <span className="text-xs text-slate-600"> (no longer exists)</span> : null}
      {compact || !e.targetLabel ? null : (
        <code className="block truncate text-xs text-slate-600" title={e.targetId}>
          {e.targetId}
        </code>
      )}
    </span>
  );
}
