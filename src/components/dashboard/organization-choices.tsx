import { Check } from "lucide-react";
import { cn } from "@/lib/utils";
import type { OrganizationSearch, PickableOrganization } from "./use-organization-search";

/** One line of the organization picker's list (organization-picker.tsx). */
export type Choice = { kind: "none" } | { kind: "organization"; organization: PickableOrganization } | { kind: "more" };

/** "No organization" only while nothing is typed; "More organizations…" while another page exists. */
export function choicesFor(search: OrganizationSearch): Choice[] {
  return [
    ...(search.query === "" && search.phase !== "idle" ? [{ kind: "none" } as const] : []),
    ...search.items.map((organization) => ({ kind: "organization", organization }) as const),
    ...(search.phase === "ready" && search.nextCursor ? [{ kind: "more" } as const] : []),
  ];
}

export function ChoiceLabel({ choice, noneLabel, selected }: { choice: Choice; noneLabel: string; selected: PickableOrganization | null }) {
  if (choice.kind === "more") return <span>More organizations…</span>;
  const isSelected = choice.kind === "none" ? selected === null : choice.organization.id === selected?.id;
  const text = choice.kind === "none" ? noneLabel : choice.organization.name;
  return (
    <>
      <Check className={cn("size-4 shrink-0 text-blue-700", !isSelected && "invisible")} aria-hidden />
      <span className={cn("min-w-0 flex-1 truncate", choice.kind === "none" && "text-slate-600 italic")} title={text}>
        {text}
      </span>
    </>
  );
}

/** What the list is doing, said once for screen readers (a live region) and shown where it helps. */
export function SearchStatus({ search, shown }: { search: OrganizationSearch; shown: number }) {
  const found = search.items.length;
  const message =
    search.phase === "searching"
      ? "Searching…"
      : search.phase === "more"
        ? "Loading more organizations…"
        : search.phase === "ready" && found === 0
          ? search.query
            ? `No organization matches "${search.query}"`
            : "No organizations to choose from"
          : "";
  const spoken =
    search.phase === "ready" && found > 0 ? `${found} organization${found === 1 ? "" : "s"}${search.nextCursor ? ", more available" : ""}` : message;
  return (
    <p role="status" className={cn("px-3 py-2 text-slate-600", !message && "sr-only", shown > 0 && message && "border-t border-slate-100")}>
      {message || spoken}
    </p>
  );
}
