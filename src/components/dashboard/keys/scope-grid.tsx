"use client";

import { SCOPE_RESOURCES } from "@/lib/api-key-scopes";

const ACTIONS = ["read", "write", "*"] as const;

/** Scopes as a resource × action grid, plus `*:*` (spec 5.5). */
export function ScopeGrid({ value, onChange }: { value: string[]; onChange: (next: string[]) => void }) {
  const selected = new Set(value);
  const toggle = (scope: string) => {
    const next = new Set(selected);
    if (next.has(scope)) next.delete(scope);
    else next.add(scope);
    onChange([...next].sort());
  };
  const everything = selected.has("*:*");
  return (
    <fieldset className="rounded-md border border-slate-200">
      <legend className="px-1 text-sm font-medium text-slate-800">Scopes</legend>
      <label className="flex items-center gap-2 border-b border-slate-100 px-3 py-2 text-sm">
        <input type="checkbox" checked={everything} onChange={() => toggle("*:*")} className="size-4 accent-slate-900" />
        <span>
          <code>*:*</code> everything <span className="text-slate-500">(meant for instance keys)</span>
        </span>
      </label>
      <div className="relative overflow-x-auto">
        <table className="w-full text-sm">
          <thead>
            <tr className="text-xs text-slate-500">
              <th scope="col" className="px-3 py-1 text-left font-medium">
                Resource
              </th>
              {ACTIONS.map((action) => (
                <th key={action} scope="col" className="px-2 py-1 font-medium">
                  {action === "*" ? "all (*)" : action}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {SCOPE_RESOURCES.map((resource) => (
              <tr key={resource} className="border-t border-slate-100">
                <th scope="row" className="px-3 py-1 text-left font-normal">
                  <code>{resource}</code>
                </th>
                {ACTIONS.map((action) => {
                  const scope = `${resource}:${action}`;
                  return (
                    <td key={action} className="px-2 py-1 text-center">
                      <input
                        type="checkbox"
                        aria-label={scope}
                        checked={selected.has(scope)}
                        disabled={everything}
                        onChange={() => toggle(scope)}
                        className="size-4 accent-slate-900"
                      />
                    </td>
                  );
                })}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </fieldset>
  );
}
