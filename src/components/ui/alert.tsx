import { AlertTriangle, CheckCircle2, Info } from "lucide-react";
import type { ReactNode } from "react";
import { cn } from "@/lib/utils";

const tones = {
  error: { box: "border-red-200 bg-red-50 text-red-900", Icon: AlertTriangle },
  warning: { box: "border-amber-200 bg-amber-50 text-amber-950", Icon: AlertTriangle },
  success: { box: "border-green-200 bg-green-50 text-green-900", Icon: CheckCircle2 },
  info: { box: "border-blue-200 bg-blue-50 text-blue-900", Icon: Info },
};

/** A message box; errors from the server carry the request id to quote to support. */
export function Alert({
  tone = "error",
  title,
  children,
  requestId,
  className,
}: {
  tone?: keyof typeof tones;
  title?: string;
  children?: ReactNode;
  requestId?: string | null;
  className?: string;
}) {
  const { box, Icon } = tones[tone];
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cn("flex gap-3 rounded-md border p-3 text-sm", box, className)}>
      <Icon className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div className="min-w-0">
        {title ? <p className="font-medium">{title}</p> : null}
        {children ? <div className={title ? "mt-0.5" : undefined}>{children}</div> : null}
        {requestId ? (
          <p className="mt-1 text-xs opacity-80">
            Request id: <code className="select-all">{requestId}</code>
          </p>
        ) : null}
      </div>
    </div>
  );
}
