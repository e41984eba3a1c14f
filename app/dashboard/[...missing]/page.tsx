import { notFound } from "next/navigation";

// An address under /dashboard with no page: the dashboard's own 404, inside its shell (D522).
export default function MissingDashboardPage() {
  notFound();
}
