"use client";

import { LogOut } from "lucide-react";
import { signOut } from "next-auth/react";
import { Button } from "@/components/ui/button";

export function SignOutButton({ compact = false }: { compact?: boolean }) {
  return (
    <Button variant="outline" size="sm" onClick={() => void signOut({ callbackUrl: "/sign-in" })}>
      <LogOut aria-hidden />
      {compact ? <span className="sr-only">Sign out</span> : "Sign out"}
    </Button>
  );
}
