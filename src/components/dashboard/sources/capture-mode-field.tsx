"use client";

import { CAPTURE_MODE_HINTS, CAPTURE_MODE_LABELS } from "./capture-mode-labels";

/** What the connection test says of each capture mode (best first). */
export interface ModeSupportDto {
  mode: string;
  supported: boolean;
  reason: string | null;
}

/**
 * The capture mode choice of the create and edit forms: "automatic" (the best mode the target
 * supports) plus each mode, enabled only when the last connection test said the target allows
 * it; a disabled one says why not. Without a test, only automatic (create) or the current mode.
 */
export function CaptureModeField({
  name,
  modes,
  value,
  onChange,
  allowAutomatic,
  current,
}: {
  name: string;
  modes: ModeSupportDto[] | null;
  value: string;
  onChange: (value: string) => void;
  allowAutomatic: boolean;
  /** The stored mode (edit form): always offered, so saving other fields never changes it. */
  current?: string | null;
}) {
  const best = modes?.find((mode) => mode.supported)?.mode ?? null;
  return (
    <fieldset className="space-y-1.5">
      <legend className="text-sm font-medium">Capture mode</legend>
      {allowAutomatic ? (
        <Choice
          name={name}
          value=""
          checked={value === ""}
          onChange={onChange}
          label={`Automatic${best ? ` (${CAPTURE_MODE_LABELS[best]})` : ""}`}
          hint="The best mode the table or object supports."
        />
      ) : null}
      {modes === null ? (
        <p className="text-xs text-slate-500">Test the connection to see which modes this source supports.</p>
      ) : (
        modes.map((mode) => (
          <Choice
            key={mode.mode}
            name={name}
            value={mode.mode}
            checked={value === mode.mode}
            disabled={!mode.supported && mode.mode !== current}
            onChange={onChange}
            label={CAPTURE_MODE_LABELS[mode.mode] ?? mode.mode}
            hint={mode.supported ? CAPTURE_MODE_HINTS[mode.mode] : `Not available: ${mode.reason}`}
          />
        ))
      )}
    </fieldset>
  );
}

function Choice(props: { name: string; value: string; checked: boolean; disabled?: boolean; onChange: (value: string) => void; label: string; hint?: string }) {
  const id = `${props.name}-${props.value || "auto"}`;
  return (
    <div className="flex items-start gap-2">
      <input
        id={id}
        type="radio"
        name={props.name}
        value={props.value}
        checked={props.checked}
        disabled={props.disabled}
        onChange={() => props.onChange(props.value)}
        aria-describedby={props.hint ? `${id}-hint` : undefined}
        className="mt-1"
      />
      {/* The hint stays outside the label: the radio's accessible name is the mode alone. */}
      <div>
        <label htmlFor={id} className={props.disabled ? "text-sm text-slate-400" : "text-sm"}>
          {props.label}
        </label>
        {props.hint ? (
          <p id={`${id}-hint`} className="text-xs text-slate-500">
            {props.hint}
          </p>
        ) : null}
      </div>
    </div>
  );
}
