"use client";

import * as DialogPrimitive from "@radix-ui/react-dialog";
import { X } from "lucide-react";
import { useRef, type ComponentProps, type ReactNode } from "react";
import { cn } from "@/lib/utils";
import { Alert } from "./alert";
import { Button } from "./button";

export const Dialog = DialogPrimitive.Root;
export const DialogTrigger = DialogPrimitive.Trigger;

export function DialogContent({
  className,
  children,
  title,
  description,
  onEscapeKeyDown,
  onOpenAutoFocus,
  onCloseAutoFocus,
  ...props
}: ComponentProps<typeof DialogPrimitive.Content> & { title: string; description?: ReactNode }) {
  // NOTE: Radix gives focus back to its Trigger, and most dialogs here open by state (a row's
  // button, a menu, a page's ?mint=), so focus fell to <body> on close. What had focus as the
  // dialog opened is its opener and gets focus back, as the WAI-ARIA dialog pattern asks (the
  // same rule as the sheet's, D506, D570).
  const opener = useRef<HTMLElement | null>(null);
  return (
    <DialogPrimitive.Portal>
      <DialogPrimitive.Overlay className="fixed inset-0 z-40 bg-slate-900/50" />
      <DialogPrimitive.Content
        className={cn(
          "fixed top-1/2 left-1/2 z-50 max-h-[92vh] w-[calc(100vw-1.5rem)] max-w-lg -translate-x-1/2 -translate-y-1/2 overflow-y-auto rounded-lg border border-slate-200 bg-white p-5 shadow-xl focus:outline-none",
          className,
        )}
        {...(description ? {} : { "aria-describedby": undefined })}
        onOpenAutoFocus={(event) => {
          // Radix moves focus in after this event: what has it now opened the dialog.
          opener.current = document.activeElement instanceof HTMLElement && document.activeElement !== document.body ? document.activeElement : null;
          onOpenAutoFocus?.(event);
        }}
        onCloseAutoFocus={(event) => {
          onCloseAutoFocus?.(event);
          const target = opener.current;
          if (event.defaultPrevented || !target?.isConnected) return;
          event.preventDefault();
          target.focus();
        }}
        onEscapeKeyDown={(event) => {
          // An open combobox list owns Escape (it closes the list, not the dialog): Radix hears
          // the key first, on the document, so it is told here.
          if (event.target instanceof Element && event.target.closest('[role="combobox"][data-state="open"]')) event.preventDefault();
          onEscapeKeyDown?.(event);
        }}
        {...props}
      >
        <DialogPrimitive.Title className="pr-8 text-lg font-semibold text-slate-900">{title}</DialogPrimitive.Title>
        {description ? <DialogPrimitive.Description className="mt-1 text-sm text-slate-600">{description}</DialogPrimitive.Description> : null}
        <div className="mt-4">{children}</div>
        <DialogPrimitive.Close className="absolute top-4 right-4 rounded-sm p-1 text-slate-500 hover:text-slate-900 focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-blue-600">
          <X className="size-4" aria-hidden />
          <span className="sr-only">Close</span>
        </DialogPrimitive.Close>
      </DialogPrimitive.Content>
    </DialogPrimitive.Portal>
  );
}

/** The end of a dialog form: why the last try failed (with its request id), Cancel, submit. */
export function DialogFormFooter({
  error,
  errorTitle,
  submitLabel,
  pending,
  onCancel,
}: {
  error: { message: string; requestId?: string | null } | null;
  errorTitle: string;
  submitLabel: string;
  pending: boolean;
  onCancel: () => void;
}) {
  return (
    <>
      {error ? (
        <Alert title={errorTitle} requestId={error.requestId}>
          {error.message}
        </Alert>
      ) : null}
      <div className="flex justify-end gap-2">
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button type="submit" disabled={pending}>
          {submitLabel}
        </Button>
      </div>
    </>
  );
}
