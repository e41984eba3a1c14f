"use client";

import { ResponsiveContainer } from "recharts";
import type { ReactElement } from "react";

/**
 * A chart that fills its figure. The chart sits in an absolutely placed box so that its drawn
 * width never counts toward the page's own width: a ResponsiveContainer in normal flow keeps the
 * width it was last drawn at as its content's minimum, so a page narrowed from desktop to phone
 * (a rotated tablet, a resized window) kept a 1 076 px chart and panned sideways. The box also
 * clips: until the chart's resize observer redraws it at the new width (a frame or more later,
 * longer while a modal sheet holds the page), its last drawing stays inside the figure.
 */
export function ChartArea({ children }: { children: ReactElement }) {
  return (
    <div className="absolute inset-2 overflow-hidden">
      <ResponsiveContainer width="100%" height="100%">
        {children}
      </ResponsiveContainer>
    </div>
  );
}
