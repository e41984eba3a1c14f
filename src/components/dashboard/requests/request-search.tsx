import { Search } from "lucide-react";

/**
 * The top bar's "paste a request id" field. A plain GET form: it works before any script has
 * loaded, and /dashboard/requests?id=… sends the viewer on to that request's page.
 */
export function RequestSearch({ className, id }: { className?: string; id: string }) {
  return (
    <form action="/dashboard/requests" method="get" role="search" aria-label="Find a request" className={className}>
      <label htmlFor={id} className="sr-only">
        Request id
      </label>
      <div className="relative">
        <Search className="pointer-events-none absolute top-1/2 left-2.5 size-4 -translate-y-1/2 text-slate-400" aria-hidden />
        <input
          id={id}
          name="id"
          type="search"
          required
          autoComplete="off"
          spellCheck={false}
          placeholder="Paste a request id (req_…)"
          className="h-9 w-full rounded-md border border-slate-300 bg-white pr-3 pl-8 font-mono text-sm shadow-xs placeholder:font-sans placeholder:text-slate-400 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none md:w-80"
        />
      </div>
    </form>
  );
}
