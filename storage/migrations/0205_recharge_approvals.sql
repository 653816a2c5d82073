-- Recharge orders above KJ_RECHARGE_MAX: one row per such order, made with
-- the order. The order is credited only on a second operator's approval;
-- first_by is who approved it first (0: nobody yet), first_at when.
CREATE TABLE recharge_approvals (
    order_id  BIGINT PRIMARY KEY,
    first_by  BIGINT NOT NULL DEFAULT 0,
    first_at  BIGINT NOT NULL DEFAULT 0
);
