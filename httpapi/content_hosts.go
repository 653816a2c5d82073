package httpapi

// Content hosts: the hosts outside this server that the operator's content
// links may point at (a CDN for banners, covers, videos, listing photos,
// the splash picture, the files base ossUrl). The app's Content-Security-
// Policy lets pictures and videos load from these hosts only (engine/
// exposure.go), and the console refuses a content link to any other host,
// so what the policy allows and what the content uses cannot drift apart.
//
// Why an operator setting and not a KJ_ variable: operators set every
// content link, and the files base, in the console; the list of hosts they
// may use belongs beside them, changes without a restart and reaches every
// node at once (settings.go). Only admins save it (agents read settings
// only, roles.go), and each save is audited with the list before and
// after.
//
// A store that never saved the list (a new install, or one upgraded from
// before the list existed) gets, on first use, the hosts its stored
// content already links to, so an upgrade keeps showing what it showed.

import (
	"context"
	"net/url"
	"slices"
	"strings"

	"kj/internal/apierr"
	"kj/storage"
)

// settingContentHosts is the setting's name: a JSON array of origins
// (https://cdn.example.com).
const settingContentHosts = "content_hosts"

// maxContentHosts caps the list (each goes into every page's policy).
const maxContentHosts = 20

func init() {
	registerArea(func(s *Server) {
		s.Post("/admin/contentHosts/save", Operator, s.adminContentHostsSave)
	})
}

// contentOrigin answers the origin (scheme://host[:port], lower case, no
// default port) of an absolute http(s) address, and false for anything
// else, including addresses with credentials.
func contentOrigin(raw string) (string, bool) {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil || u.User != nil || u.Host == "" {
		return "", false
	}
	scheme := strings.ToLower(u.Scheme)
	if scheme != "http" && scheme != "https" {
		return "", false
	}
	host, port := strings.ToLower(u.Hostname()), u.Port()
	if host == "" || (scheme == "http" && port == "80") || (scheme == "https" && port == "443") {
		port = ""
	}
	if host == "" || strings.ContainsAny(host, " ;,'\"*") {
		return "", false
	}
	if strings.Contains(host, ":") {
		host = "[" + host + "]" // IPv6
	}
	if port != "" {
		host += ":" + port
	}
	return scheme + "://" + host, true
}

// ContentHosts answers the allowed content hosts (origins), from the
// node's copy of the setting; a store that never saved them first saves
// the hosts its content already uses.
func (s *Server) ContentHosts(ctx context.Context) ([]string, error) {
	var hosts []string
	found, err := s.setting(ctx, settingContentHosts, &hosts)
	if err != nil || found {
		return hosts, err
	}
	err = s.DB.Tx(ctx, func(tx storage.Tx) error {
		// Another node may have saved them meanwhile; theirs stands.
		if found, err := storage.GetSetting(ctx, tx, settingContentHosts, &hosts); err != nil || found {
			return err
		}
		used, err := contentHostsInUse(ctx, tx)
		if err != nil {
			return err
		}
		hosts = used
		return storage.PutSetting(ctx, tx, settingContentHosts, hosts, 0, s.Clock.Now().UnixMilli())
	})
	if err != nil {
		return nil, err
	}
	s.settingChanged(ctx, settingContentHosts)
	if len(hosts) > 0 {
		s.Log.Info("content hosts: none were saved; allowed the hosts stored content links to", "hosts", hosts)
	}
	return hosts, nil
}

// contentHostsInUse answers the origins the stored content links to, in a
// stable order: pictures and videos of banners, videos and listings, the
// app's files base and splash picture, and each domain's files base.
func contentHostsInUse(ctx context.Context, q storage.Querier) ([]string, error) {
	out := []string{} // saved as [], never null
	add := func(links ...string) {
		for _, l := range links {
			if o, ok := contentOrigin(l); ok && !slices.Contains(out, o) {
				out = append(out, o)
			}
		}
	}
	banners, err := storage.ListBanners(ctx, q, false)
	if err != nil {
		return nil, err
	}
	for _, b := range banners {
		add(b.Image)
	}
	const page = 500
	for off := 0; ; off += page {
		vs, err := storage.ListVideos(ctx, q, "", false, page, off)
		if err != nil {
			return nil, err
		}
		for _, v := range vs {
			add(v.URL, v.Cover)
		}
		if len(vs) < page {
			break
		}
	}
	for off := 0; ; off += page {
		ls, err := storage.ListListings(ctx, q, 0, false, page, off)
		if err != nil {
			return nil, err
		}
		for _, l := range ls {
			add(l.Photos...)
		}
		if len(ls) < page {
			break
		}
	}
	var app storage.AppSettings
	if _, err := storage.GetSetting(ctx, q, storage.SettingApp, &app); err != nil {
		return nil, err
	}
	add(app.OssURL, app.SplashImage)
	domains, err := storage.ListDomains(ctx, q)
	if err != nil {
		return nil, err
	}
	for _, d := range domains {
		add(d.OssURL)
	}
	slices.Sort(out)
	return out, nil
}

// contentMediaLink checks a content link the app loads as a picture or a
// video (or, for ossUrl, as the base of them): contentLink's form, and an
// absolute address only on an allowed content host.
func (s *Server) contentMediaLink(ctx context.Context, field string, v *string, required bool) error {
	if err := contentLink(field, v, required); err != nil || !strings.Contains(*v, "://") {
		return err
	}
	origin, ok := contentOrigin(*v)
	if !ok {
		return apierr.Fail(apierr.CodeInvalid, "content.link.invalid", "field", field)
	}
	hosts, err := s.ContentHosts(ctx)
	if err != nil {
		return err
	}
	if !slices.Contains(hosts, origin) {
		return apierr.Fail(apierr.CodeInvalid, "content.link.host", "field", field, "host", origin)
	}
	return nil
}

// adminContentHostsSave replaces the allowed content hosts: {"hosts":
// ["https://cdn.example.com", ...]}, each an http(s) origin (a trailing
// slash is dropped), at most maxContentHosts. A host that stored content
// still links to cannot be dropped. Answers the settings as settings/get.
func (s *Server) adminContentHostsSave(c *Call) (any, error) {
	var req struct {
		Hosts []string `json:"hosts"`
	}
	if err := c.Decode(&req); err != nil {
		return nil, err
	}
	invalid := apierr.Fail(apierr.CodeInvalid, "content.hosts.invalid", "max", maxContentHosts)
	if len(req.Hosts) > maxContentHosts {
		return nil, invalid
	}
	hosts := []string{}
	for _, h := range req.Hosts {
		h = strings.TrimSuffix(strings.TrimSpace(h), "/")
		if h == "" {
			continue
		}
		u, err := url.Parse(h)
		o, ok := contentOrigin(h)
		if err != nil || !ok || u.Path != "" || u.RawQuery != "" || u.Fragment != "" || strings.HasSuffix(h, "?") || strings.HasSuffix(h, "#") {
			return nil, invalid
		}
		if !slices.Contains(hosts, o) {
			hosts = append(hosts, o)
		}
	}
	slices.Sort(hosts)
	err := s.DB.Tx(c.Ctx, func(tx storage.Tx) error {
		var before []string
		if _, err := storage.GetSetting(c.Ctx, tx, settingContentHosts, &before); err != nil {
			return err
		}
		used, err := contentHostsInUse(c.Ctx, tx)
		if err != nil {
			return err
		}
		for _, u := range used {
			if !slices.Contains(hosts, u) {
				return apierr.Fail(apierr.CodeInvalid, "content.hosts.inUse", "host", u)
			}
		}
		if err := storage.PutSetting(c.Ctx, tx, settingContentHosts, hosts, c.User.ID, s.Clock.Now().UnixMilli()); err != nil {
			return err
		}
		return RecordOperatorAction(c, tx, "settings.save", settingContentHosts, auditChange{Before: before, After: hosts})
	})
	if err != nil {
		return nil, err
	}
	s.settingChanged(c.Ctx, settingContentHosts)
	return s.adminSettingsGet(c)
}
