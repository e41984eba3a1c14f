import fc from "fast-check";

/** Strings a hostile client sends: injections, odd unicode, NUL, encodings, long values. */
export const hostileStrings: string[] = [
  "",
  " ",
  "'; DROP TABLE organizations; --",
  "' OR '1'='1",
  "1 OR 1=1",
  "$1",
  "${7*7}",
  "{{7*7}}",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "..%2F..%2Fetc%2Fpasswd",
  "%00",
  "\u0000",
  "a\u0000b",
  "\ud800",
  "\udfff",
  "🌱🚜",
  "Zoë",
  "\u202e",
  "\uFEFF",
  "null",
  "undefined",
  "true",
  "-1",
  "0",
  "1e309",
  "NaN",
  "Infinity",
  "__proto__",
  "constructor",
  "x".repeat(5_000),
  "%".repeat(20),
  "%ff%fe",
  "\r\nX-Injected: 1",
  "00000000-0000-0000-0000-000000000000",
];

export const hostileString: fc.Arbitrary<string> = fc.oneof(
  { weight: 3, arbitrary: fc.constantFrom(...hostileStrings) },
  { weight: 2, arbitrary: fc.string({ unit: "binary", maxLength: 40 }) },
  { weight: 1, arbitrary: fc.string({ maxLength: 2_000 }) },
);

/** JSON values with hostile leaves, up to a few levels deep. */
export const hostileJson: fc.Arbitrary<unknown> = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: "small", withCrossShrink: true },
    hostileString,
    fc.double(),
    fc.integer(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie("value"), { maxLength: 4 }),
    fc.dictionary(hostileString, tie("value"), { maxKeys: 4 }),
  ),
})).value;
