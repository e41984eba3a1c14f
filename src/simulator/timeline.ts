/**
 * One ordered log per run, shared by the writer and every device: what each did, in the order
 * it happened, with the external ids involved, so a divergence can be traced to the requests
 * and passes that led to it.
 */
export interface TimelineEvent {
  seq: number;
  actor: string;
  text: string;
  /** External ids the event touched or returned. */
  ids: ReadonlySet<string>;
  /** When it was logged (ms since the epoch); a writer logs a change once it has committed. */
  at: number;
}

export class Timeline {
  readonly events: TimelineEvent[] = [];

  add(actor: string, text: string, ids: Iterable<string> = []): void {
    this.events.push({ seq: this.events.length + 1, actor, text, ids: new Set(ids), at: Date.now() });
  }

  /** When the writer last logged a change, or null before its first. */
  lastWriteAt(): number | null {
    for (let index = this.events.length - 1; index >= 0; index--) if (this.events[index]!.actor === "writer") return this.events[index]!.at;
    return null;
  }

  /** The events of `actors` (all when omitted) that mention `id`, the last `max` of them. */
  about(id: string, options: { actors?: (actor: string) => boolean; max: number }): TimelineEvent[] {
    const matching = this.events.filter((event) => event.ids.has(id) && (options.actors?.(event.actor) ?? true));
    return matching.slice(-options.max);
  }
}
