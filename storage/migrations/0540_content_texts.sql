-- Content in the users' languages: texts is a JSON object keyed by language,
-- each a map of field to text, e.g. {"en-US": {"title": "Welcome"}}. The
-- plain columns (title, name, intro, content) hold the default language and
-- answer any language texts does not name.
ALTER TABLE banners ADD COLUMN texts TEXT NOT NULL DEFAULT '{}';
ALTER TABLE videos ADD COLUMN texts TEXT NOT NULL DEFAULT '{}';
ALTER TABLE cities ADD COLUMN texts TEXT NOT NULL DEFAULT '{}';
ALTER TABLE city_listings ADD COLUMN texts TEXT NOT NULL DEFAULT '{}';
ALTER TABLE notices ADD COLUMN texts TEXT NOT NULL DEFAULT '{}';
