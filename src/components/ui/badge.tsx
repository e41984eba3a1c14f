import { cva, type VariantProps } from "class-variance-authority";
import type { ComponentProps } from "react";
import { cn } from "@/lib/utils";

const badgeVariants = cva("inline-flex items-center rounded-full border px-2 py-0.5 text-xs font-medium whitespace-nowrap", {
  variants: {
    tone: {
      neutral: "border-slate-200 bg-slate-100 text-slate-700",
      green: "border-green-200 bg-green-50 text-green-800",
      red: "border-red-200 bg-red-50 text-red-800",
      amber: "border-amber-200 bg-amber-50 text-amber-900",
      blue: "border-blue-200 bg-blue-50 text-blue-800",
    },
  },
  defaultVariants: { tone: "neutral" },
});

export function Badge({ className, tone, ...props }: ComponentProps<"span"> & VariantProps<typeof badgeVariants>) {
  return <span className={cn(badgeVariants({ tone }), className)} {...props} />;
}
