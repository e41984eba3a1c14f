-- The detail of a delivery failure, shown to owners only (D376); last_error keeps its class.
ALTER TABLE "alert_deliveries" ADD COLUMN "last_error_detail" TEXT;
