/**
 * A UTC time bound of a GET filter form (the request log's and a key's): a datetime-local field
 * named for its query parameter, prefilled from the ISO value the URL carried (to the minute).
 */
export function TimeField({ name, label, value }: { name: string; label: string; value?: string }) {
  return (
    <label className="text-xs font-medium text-slate-600">
      {label}
      <input
        type="datetime-local"
        name={name}
        defaultValue={value?.slice(0, 16) ?? ""}
        className="mt-1 flex h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
      />
    </label>
  );
}
