-- Content the operators manage and the app shows: settings (app name,
-- splash image, update manifest, video limit), per-domain app identity,
-- banners, videos, cities with their listings; plus daily video views,
-- daily statistics events and each user's uploaded address book.

-- Named settings, each a JSON document (see storage/content.go).
CREATE TABLE content_settings (
    name        TEXT PRIMARY KEY,
    value       TEXT NOT NULL,
    updated_by  BIGINT NOT NULL DEFAULT 0,
    updated_at  BIGINT NOT NULL
);

-- What /getDomainInfo answers for a domain the app is served from.
CREATE TABLE app_domains (
    domain       TEXT PRIMARY KEY,
    platform_id  BIGINT NOT NULL,
    package_id   BIGINT NOT NULL,
    app_name     TEXT NOT NULL DEFAULT '',
    oss_url      TEXT NOT NULL DEFAULT '',
    created_at   BIGINT NOT NULL,
    updated_at   BIGINT NOT NULL
);

-- Discover carousel.
CREATE TABLE banners (
    id          BIGINT PRIMARY KEY,
    title       TEXT NOT NULL DEFAULT '',
    image       TEXT NOT NULL,
    link        TEXT NOT NULL DEFAULT '',
    sort        INTEGER NOT NULL DEFAULT 0,
    enabled     SMALLINT NOT NULL DEFAULT 1,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE INDEX banners_order ON banners (enabled, sort, id);

-- Videos of the discover tab (kind 'find') and the live-highlights tab
-- (kind 'passionate'). chat_user_id is the account the jump-to-conversation
-- button opens (0: none).
CREATE TABLE videos (
    id            BIGINT PRIMARY KEY,
    kind          TEXT NOT NULL,
    title         TEXT NOT NULL,
    cover         TEXT NOT NULL DEFAULT '',
    url           TEXT NOT NULL,
    duration_s    INTEGER NOT NULL DEFAULT 0,
    chat_user_id  BIGINT NOT NULL DEFAULT 0,
    sort          INTEGER NOT NULL DEFAULT 0,
    enabled       SMALLINT NOT NULL DEFAULT 1,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX videos_order ON videos (kind, enabled, sort, id);

-- Same-city tab.
CREATE TABLE cities (
    id          BIGINT PRIMARY KEY,
    name        TEXT NOT NULL,
    sort        INTEGER NOT NULL DEFAULT 0,
    enabled     SMALLINT NOT NULL DEFAULT 1,
    created_at  BIGINT NOT NULL,
    updated_at  BIGINT NOT NULL
);
CREATE UNIQUE INDEX cities_name ON cities (name);

-- A listed person. photos is a JSON array of URLs. contact is for
-- operators (customer service hands it out); it is never sent to users.
CREATE TABLE city_listings (
    id            BIGINT PRIMARY KEY,
    city_id       BIGINT NOT NULL,
    name          TEXT NOT NULL,
    age           SMALLINT NOT NULL,
    photos        TEXT NOT NULL DEFAULT '[]',
    intro         TEXT NOT NULL DEFAULT '',
    certified     SMALLINT NOT NULL DEFAULT 0,
    deposit_paid  SMALLINT NOT NULL DEFAULT 0,
    contact       TEXT NOT NULL DEFAULT '',
    sort          INTEGER NOT NULL DEFAULT 0,
    enabled       SMALLINT NOT NULL DEFAULT 1,
    created_at    BIGINT NOT NULL,
    updated_at    BIGINT NOT NULL
);
CREATE INDEX city_listings_city ON city_listings (city_id, enabled, sort, id);

-- Videos watched per user and day (day = yyyymmdd in the configured zone),
-- for the daily limit of non-activated accounts when Redis is not used.
CREATE TABLE video_views (
    user_id  BIGINT NOT NULL,
    day      INTEGER NOT NULL,
    views    INTEGER NOT NULL,
    PRIMARY KEY (user_id, day)
);

-- /zztj beacon: count of each event per day.
CREATE TABLE content_stats (
    day    INTEGER NOT NULL,
    event  TEXT NOT NULL,
    count  BIGINT NOT NULL,
    PRIMARY KEY (day, event)
);

-- The address book a user uploaded (JSON array of {name, phone}); the
-- last upload replaces the previous one. Never served to anyone.
CREATE TABLE user_contacts (
    user_id     BIGINT PRIMARY KEY,
    contacts    TEXT NOT NULL,
    count       INTEGER NOT NULL,
    updated_at  BIGINT NOT NULL
);
