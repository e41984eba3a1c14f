"use client";

import { ChevronsUpDown, X } from "lucide-react";
import { useEffect, useRef, useState, type KeyboardEvent } from "react";
import { Alert } from "@/components/ui/alert";
import { Button } from "@/components/ui/button";
import { Input, Label } from "@/components/ui/input";
import { cn } from "@/lib/utils";
import { ChoiceLabel, choicesFor, SearchStatus, type Choice } from "./organization-choices";
import { useOrganizationSearch, type PickableOrganization } from "./use-organization-search";

/**
 * An organization chosen by searching the server (D332), for forms that once held a <select>
 * of every organization: a WAI-ARIA combobox (list autocomplete, manual selection) over
 * organizations.pick, paged by cursor. The choice travels in a hidden input named `name`, so
 * the form around it submits as before ("" for `noneLabel`).
 */
export function OrganizationPicker({
  id,
  name,
  label,
  noneLabel,
  initial = null,
  inline = false,
}: {
  id: string;
  name: string;
  label: string;
  /** The "no organization" choice: "All organizations" for a filter, "No organization" for a field. */
  noneLabel: string;
  initial?: PickableOrganization | null;
  /** In a scrolling box (a dialog) the list takes room in the flow instead of floating, so it is never clipped. */
  inline?: boolean;
}) {
  const [selected, setSelected] = useState<PickableOrganization | null>(initial);
  const [text, setText] = useState(initial?.name ?? "");
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const { search, start, more, retry, stop } = useOrganizationSearch();
  const input = useRef<HTMLInputElement>(null);
  const choices = choicesFor(search);
  const optionId = (index: number) => `${id}-option-${index}`;
  const expanded = open && choices.length > 0;
  const activeId = expanded && active >= 0 && active < choices.length ? optionId(active) : undefined;
  // The active option stays in sight as the keys (or a new page) move it.
  useEffect(() => {
    if (activeId) document.getElementById(activeId)?.scrollIntoView({ block: "nearest" });
  }, [activeId]);

  function openList() {
    if (open) return;
    setOpen(true);
    setActive(-1);
    start("", { immediate: true });
  }
  function close() {
    setOpen(false);
    setActive(-1);
    setText(selected?.name ?? "");
    stop();
  }
  function choose(choice: Choice) {
    if (choice.kind === "more") {
      // The first organization of the new page takes the place "More organizations…" had.
      const firstNew = choices.length - 1;
      void more().then((shown) => setActive(shown ? firstNew : -1));
      return;
    }
    const next = choice.kind === "none" ? null : choice.organization;
    setSelected(next);
    setText(next?.name ?? "");
    setOpen(false);
    setActive(-1);
    stop();
  }
  function onKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      if (!open) return openList();
      if (choices.length === 0) return;
      const down = event.key === "ArrowDown";
      setActive(active < 0 ? (down ? 0 : choices.length - 1) : Math.max(0, Math.min(choices.length - 1, active + (down ? 1 : -1))));
    } else if (event.key === "Enter" && open) {
      // NOTE: an open list owns Enter: the form is submitted only once a choice is made.
      event.preventDefault();
      const choice = choices[active];
      if (choice) choose(choice);
    } else if (event.key === "Escape" && open) {
      event.preventDefault();
      close();
    }
  }

  return (
    <div className="space-y-1.5">
      <Label htmlFor={id} id={`${id}-label`}>
        {label}
      </Label>
      <div
        className="relative"
        onBlur={(event) => {
          if (open && !event.currentTarget.contains(event.relatedTarget)) close();
        }}
      >
        <div className="relative">
          <Input
            ref={input}
            id={id}
            role="combobox"
            aria-expanded={expanded}
            aria-controls={`${id}-listbox`}
            aria-autocomplete="list"
            aria-activedescendant={activeId}
            data-state={open ? "open" : "closed"}
            autoComplete="off"
            spellCheck={false}
            placeholder={noneLabel}
            value={text}
            className="truncate pr-9"
            onFocus={(event) => {
              event.currentTarget.select();
              openList();
            }}
            onClick={openList}
            onChange={(event) => {
              setText(event.target.value);
              setOpen(true);
              setActive(-1);
              start(event.target.value.trim());
            }}
            onKeyDown={onKeyDown}
          />
          {selected ? (
            <button
              type="button"
              aria-label={`Clear organization (${noneLabel.toLowerCase()})`}
              className="absolute top-1/2 right-1.5 -translate-y-1/2 rounded-sm p-1 text-slate-500 hover:text-slate-900 focus-visible:ring-2 focus-visible:ring-blue-600 focus-visible:outline-none"
              onClick={() => {
                choose({ kind: "none" });
                input.current?.focus();
              }}
            >
              <X className="size-4" aria-hidden />
            </button>
          ) : (
            <ChevronsUpDown className="pointer-events-none absolute top-1/2 right-2.5 size-4 -translate-y-1/2 text-slate-400" aria-hidden />
          )}
        </div>
        <input type="hidden" name={name} value={selected?.id ?? ""} />
        <div hidden={!open} className={cn("mt-1 rounded-md border border-slate-200 bg-white text-sm shadow-lg", !inline && "absolute inset-x-0 z-30")}>
          <ul role="listbox" id={`${id}-listbox`} aria-labelledby={`${id}-label`} hidden={!expanded} className="max-h-64 overflow-y-auto py-1">
            {choices.map((choice, index) => (
              <li
                key={choice.kind === "organization" ? choice.organization.id : choice.kind}
                id={optionId(index)}
                role="option"
                aria-selected={choice.kind === "organization" ? choice.organization.id === selected?.id : choice.kind === "none" && selected === null}
                className={cn(
                  "flex cursor-pointer items-center gap-2 px-3 py-1.5",
                  optionId(index) === activeId && "bg-blue-50 ring-1 ring-blue-600 ring-inset",
                  choice.kind === "more" ? "font-medium text-blue-700" : "text-slate-900",
                )}
                // Keep the focus in the input: a click must not blur it (which would close the list).
                onMouseDown={(event) => event.preventDefault()}
                onMouseMove={() => index !== active && setActive(index)}
                onClick={() => choose(choice)}
              >
                <ChoiceLabel choice={choice} noneLabel={noneLabel} selected={selected} />
              </li>
            ))}
          </ul>
          <SearchStatus search={search} shown={choices.length} />
          {search.error ? (
            <div className="p-2">
              <Alert title="Organizations could not be loaded" requestId={search.error.requestId}>
                <p>{search.error.message}</p>
                <Button
                  type="button"
                  variant="link"
                  className="h-auto p-0"
                  onClick={() => {
                    input.current?.focus();
                    retry();
                  }}
                >
                  Try again
                </Button>
              </Alert>
            </div>
          ) : null}
        </div>
      </div>
    </div>
  );
}
