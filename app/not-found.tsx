import Link from "next/link";

// Any other address with no page: a 404 with one h1 (D522, D525), outside the dashboard's shell.
export default function NotFound() {
  return (
    <main className="mx-auto max-w-xl space-y-3 p-6">
      <h1 className="text-xl font-semibold tracking-tight text-slate-900 sm:text-2xl">Not found</h1>
      <p className="text-sm text-slate-700">Nothing is at this address.</p>
      <Link href="/dashboard" className="inline-block text-sm text-blue-700 underline">
        Go to the dashboard
      </Link>
    </main>
  );
}
