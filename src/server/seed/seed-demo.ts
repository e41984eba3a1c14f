import { SYSTEM } from "@/server/modules/access/acting-principal";
import type { PrismaClient } from "@/server/db/types";
import { createCsvSource } from "@/server/modules/data-sources/create-csv-source";
import { replaceCsvRows } from "@/server/modules/data-sources/csv/replace-csv-rows";
import { createForm } from "@/server/modules/forms/create-form";
import { createOrganization } from "@/server/modules/organizations/create-organization";
import { createInstanceOwner } from "@/server/modules/users/create-owner";
import { generatePassword } from "@/server/modules/users/passwords";

export const DEMO_OWNER_EMAIL = "owner@groundwork.local";

const DEMO_SITES_CSV = `site_code,name,region,latitude,longitude
NB-001,North Bridge pump station,North,52.3791,4.9003
EW-014,East Wharf depot,East,52.3712,4.9301
SF-203,South Fields reservoir,South,52.3405,4.8870
WH-077,West Hill water tower,West,52.3688,4.8402
CC-010,Central Control,Central,52.3676,4.9041
`;

export type SeedResult = { seeded: false } | { seeded: true; email: string; password: string; organizationId: string };

/**
 * First run only: a demo instance to log in to. The owner's password is generated and shown
 * once by the caller; only its argon2 hash is stored.
 */
export async function seedDemoInstance(db: PrismaClient): Promise<SeedResult> {
  if ((await db.user.count()) > 0 || (await db.organization.count()) > 0) return { seeded: false };
  const password = generatePassword();
  // NOTE: one transaction: a start interrupted half-way must not leave an owner whose
  // password was never shown (the next start would then skip seeding).
  const organizationId = await db.$transaction(
    async (tx) => {
      await createInstanceOwner(tx, SYSTEM, { email: DEMO_OWNER_EMAIL, password, name: "Demo Owner" });
      const organization = await createOrganization(tx, SYSTEM, "Demo Organization");
      await createForm(tx, SYSTEM, organization.id, "Site inspection");
      const source = await createCsvSource(tx, SYSTEM, { organizationId: organization.id, name: "Sites", keyColumn: "site_code" });
      await replaceCsvRows(tx, SYSTEM, source.id, DEMO_SITES_CSV);
      return organization.id;
    },
    { timeout: 60_000 },
  );
  return { seeded: true, email: DEMO_OWNER_EMAIL, password, organizationId };
}
