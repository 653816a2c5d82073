package httpapi

// The audit log as operators read it: each row in words, in the caller's
// language (one of the six of apierr.Langs), with amounts in points rather
// than cents, the fields that changed, and the player and the order the row
// names so the console can link to them. Every action of auditActions has a
// sentence here in every locale (TestEveryAuditActionReadsInEveryLocale).

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"kj/internal/apierr"
	"kj/storage"
	"kj/wallet"
)

// auditTexts is each action's sentence, in apierr.Langs order: en-US,
// es-ES, ms-MY, vi-VN, zh-CN, zh-HANT. {target} is the object the row
// names, {amount} the order's amount in points.
var auditTexts = map[string][6]string{
	"operator.create":         {"Created operator account {target}", "Creó la cuenta de operador {target}", "Mencipta akaun operator {target}", "Đã tạo tài khoản vận hành {target}", "创建了运营人员账号 {target}", "建立了營運人員帳號 {target}"},
	"operator.role":           {"Changed the role of operator {target}", "Cambió el rol del operador {target}", "Menukar peranan operator {target}", "Đã đổi vai trò của nhân viên vận hành {target}", "修改了运营人员 {target} 的角色", "修改了營運人員 {target} 的角色"},
	"operator.disable":        {"Disabled operator {target} and signed them out", "Desactivó al operador {target} y cerró su sesión", "Menyahdayakan operator {target} dan log keluar mereka", "Đã vô hiệu hóa nhân viên vận hành {target} và đăng xuất", "停用了运营人员 {target} 并使其下线", "停用了營運人員 {target} 並使其下線"},
	"operator.enable":         {"Enabled operator {target} again", "Volvió a activar al operador {target}", "Mendayakan semula operator {target}", "Đã bật lại nhân viên vận hành {target}", "重新启用了运营人员 {target}", "重新啟用了營運人員 {target}"},
	"operator.password.reset": {"Reset the password of operator {target}", "Restableció la contraseña del operador {target}", "Menetapkan semula kata laluan operator {target}", "Đã đặt lại mật khẩu của nhân viên vận hành {target}", "重置了运营人员 {target} 的登录密码", "重設了營運人員 {target} 的登入密碼"},

	"user.activation":         {"Changed the membership of user {target}", "Cambió la membresía del usuario {target}", "Menukar keahlian pengguna {target}", "Đã thay đổi tư cách thành viên của người dùng {target}", "修改了用户 {target} 的激活状态", "修改了用戶 {target} 的啟用狀態"},
	"user.freeze":             {"Froze the sign-in of user {target}", "Bloqueó el inicio de sesión del usuario {target}", "Membekukan log masuk pengguna {target}", "Đã khóa đăng nhập của người dùng {target}", "冻结了用户 {target} 的登录", "凍結了用戶 {target} 的登入"},
	"user.unfreeze":           {"Unfroze the sign-in of user {target}", "Desbloqueó el inicio de sesión del usuario {target}", "Menyahbekukan log masuk pengguna {target}", "Đã mở khóa đăng nhập của người dùng {target}", "解冻了用户 {target} 的登录", "解凍了用戶 {target} 的登入"},
	"user.fundPassword.reset": {"Reset the fund password of user {target}", "Restableció la contraseña de fondos del usuario {target}", "Menetapkan semula kata laluan dana pengguna {target}", "Đã đặt lại mật khẩu quỹ của người dùng {target}", "重置了用户 {target} 的资金密码", "重設了用戶 {target} 的資金密碼"},
	"user.delete":             {"User {target} deleted their own account (profile, phone, cards and avatar erased; money records kept under the id)", "El usuario {target} eliminó su propia cuenta (perfil, teléfono, tarjetas y avatar borrados; los registros de dinero se conservan con el id)", "Pengguna {target} memadam akaun sendiri (profil, telefon, kad dan avatar dipadam; rekod wang disimpan di bawah id)", "Người dùng {target} đã tự xóa tài khoản (hồ sơ, số điện thoại, thẻ và ảnh đại diện đã xóa; hồ sơ tiền được giữ theo id)", "用户 {target} 注销了自己的账户（资料、手机号、银行卡和头像已清除；资金记录以该 ID 保留）", "用戶 {target} 註銷了自己的帳戶（資料、手機號、銀行卡和頭像已清除；資金記錄以該 ID 保留）"},

	"customer.handover": {"Handed visitor {target} to another agent", "Transfirió al visitante {target} a otro agente", "Menyerahkan pelawat {target} kepada ejen lain", "Đã chuyển khách {target} cho nhân viên khác", "将访客 {target} 转交给其他客服", "將訪客 {target} 轉交給其他客服"},
	"customer.reply":    {"Replied to visitor {target}", "Respondió al visitante {target}", "Membalas pelawat {target}", "Đã trả lời khách {target}", "回复了访客 {target}", "回覆了訪客 {target}"},

	"recharge.approve":  {"Gave the first approval of recharge order {target} of {amount} (above the maximum: a second operator credits it)", "Dio la primera aprobación de la recarga {target} de {amount} (sobre el máximo: otro operador la acredita)", "Memberi kelulusan pertama pesanan tambah nilai {target} sebanyak {amount} (melebihi had: operator kedua mengkreditkannya)", "Đã duyệt lần một lệnh nạp {target} số tiền {amount} (vượt hạn mức: người vận hành thứ hai ghi có)", "首次批准了充值订单 {target}，金额 {amount}（超过上限，需另一位操作员批准入账）", "首次批准了充值訂單 {target}，金額 {amount}（超過上限，需另一位操作員批准入帳）"},
	"recharge.confirm":  {"Confirmed recharge order {target} of {amount}", "Confirmó la recarga {target} de {amount}", "Mengesahkan pesanan tambah nilai {target} sebanyak {amount}", "Đã xác nhận lệnh nạp {target} số tiền {amount}", "确认了充值订单 {target}，金额 {amount}", "確認了充值訂單 {target}，金額 {amount}"},
	"recharge.fail":     {"Rejected recharge order {target} of {amount}", "Rechazó la recarga {target} de {amount}", "Menolak pesanan tambah nilai {target} sebanyak {amount}", "Đã từ chối lệnh nạp {target} số tiền {amount}", "驳回了充值订单 {target}，金额 {amount}", "駁回了充值訂單 {target}，金額 {amount}"},
	"recharge.release":  {"Let recharge order {target}, held by the player's deposit limit or exclusion, be credited", "Dejó acreditar la recarga {target}, retenida por el límite de depósito o la exclusión del jugador", "Membenarkan pesanan tambah nilai {target}, yang ditahan oleh had deposit atau pengecualian pemain, dikreditkan", "Đã cho phép ghi có lệnh nạp {target} bị giữ do giới hạn nạp hoặc tự loại trừ của người chơi", "放行了因玩家充值限额或自我禁止而暂扣的充值订单 {target}", "放行了因玩家充值限額或自我禁止而暫扣的充值訂單 {target}"},
	"exchange.complete": {"Paid exchange order {target} of {amount}", "Pagó el canje {target} de {amount}", "Membayar pesanan tukaran {target} sebanyak {amount}", "Đã thanh toán lệnh đổi {target} số tiền {amount}", "完成了兑换订单 {target}，金额 {amount}", "完成了兌換訂單 {target}，金額 {amount}"},
	"exchange.fail":     {"Rejected exchange order {target} of {amount} (refunded)", "Rechazó el canje {target} de {amount} (reembolsado)", "Menolak pesanan tukaran {target} sebanyak {amount} (dipulangkan)", "Đã từ chối lệnh đổi {target} số tiền {amount} (đã hoàn)", "驳回了兑换订单 {target}，金额 {amount}（已退回）", "駁回了兌換訂單 {target}，金額 {amount}（已退回）"},
	"window.rules":      {"Changed the odds, limits or phases of window {target}", "Cambió cuotas, límites o fases de la ventana {target}", "Menukar odds, had atau fasa tetingkap {target}", "Đã đổi tỷ lệ, hạn mức hoặc thời gian của cửa sổ {target}", "修改了窗口 {target} 的赔率、限额或时长", "修改了視窗 {target} 的賠率、限額或時長"},
	"bank.add":          {"Added bank {target}", "Añadió el banco {target}", "Menambah bank {target}", "Đã thêm ngân hàng {target}", "新增了银行 {target}", "新增了銀行 {target}"},
	"bank.update":       {"Changed bank {target}", "Cambió el banco {target}", "Menukar bank {target}", "Đã sửa ngân hàng {target}", "修改了银行 {target}", "修改了銀行 {target}"},

	"banner.create":  {"Created banner {target}", "Creó el banner {target}", "Mencipta sepanduk {target}", "Đã tạo banner {target}", "新建了轮播图 {target}", "新建了輪播圖 {target}"},
	"banner.update":  {"Changed banner {target}", "Cambió el banner {target}", "Menukar sepanduk {target}", "Đã sửa banner {target}", "修改了轮播图 {target}", "修改了輪播圖 {target}"},
	"banner.delete":  {"Deleted banner {target}", "Eliminó el banner {target}", "Memadam sepanduk {target}", "Đã xóa banner {target}", "删除了轮播图 {target}", "刪除了輪播圖 {target}"},
	"video.create":   {"Created video {target}", "Creó el vídeo {target}", "Mencipta video {target}", "Đã tạo video {target}", "新建了视频 {target}", "新建了影片 {target}"},
	"video.update":   {"Changed video {target}", "Cambió el vídeo {target}", "Menukar video {target}", "Đã sửa video {target}", "修改了视频 {target}", "修改了影片 {target}"},
	"video.delete":   {"Deleted video {target}", "Eliminó el vídeo {target}", "Memadam video {target}", "Đã xóa video {target}", "删除了视频 {target}", "刪除了影片 {target}"},
	"city.create":    {"Created city {target}", "Creó la ciudad {target}", "Mencipta bandar {target}", "Đã tạo thành phố {target}", "新建了城市 {target}", "新建了城市 {target}"},
	"city.update":    {"Changed city {target}", "Cambió la ciudad {target}", "Menukar bandar {target}", "Đã sửa thành phố {target}", "修改了城市 {target}", "修改了城市 {target}"},
	"city.delete":    {"Deleted city {target}", "Eliminó la ciudad {target}", "Memadam bandar {target}", "Đã xóa thành phố {target}", "删除了城市 {target}", "刪除了城市 {target}"},
	"listing.create": {"Created listing {target}", "Creó el anuncio {target}", "Mencipta senarai {target}", "Đã tạo tin {target}", "新建了同城信息 {target}", "新建了同城資訊 {target}"},
	"listing.update": {"Changed listing {target}", "Cambió el anuncio {target}", "Menukar senarai {target}", "Đã sửa tin {target}", "修改了同城信息 {target}", "修改了同城資訊 {target}"},
	"listing.delete": {"Deleted listing {target}", "Eliminó el anuncio {target}", "Memadam senarai {target}", "Đã xóa tin {target}", "删除了同城信息 {target}", "刪除了同城資訊 {target}"},
	"notice.publish": {"Published notice {target}", "Publicó el aviso {target}", "Menerbitkan notis {target}", "Đã đăng thông báo {target}", "发布了公告 {target}", "發布了公告 {target}"},
	"notice.update":  {"Edited notice {target}", "Editó el aviso {target}", "Menyunting notis {target}", "Đã sửa thông báo {target}", "编辑了公告 {target}", "編輯了公告 {target}"},
	"notice.delete":  {"Deleted notice {target}", "Eliminó el aviso {target}", "Memadam notis {target}", "Đã xóa thông báo {target}", "删除了公告 {target}", "刪除了公告 {target}"},

	"video.limit":   {"Changed the daily video limit", "Cambió el límite diario de vídeos", "Menukar had video harian", "Đã đổi giới hạn video mỗi ngày", "修改了每日视频观看次数", "修改了每日影片觀看次數"},
	"manifest.save": {"Changed the app's install settings", "Cambió la configuración de instalación de la app", "Menukar tetapan pemasangan aplikasi", "Đã đổi cài đặt cài ứng dụng", "修改了应用安装设置", "修改了應用安裝設定"},
	"settings.save": {"Changed setting {target}", "Cambió el ajuste {target}", "Menukar tetapan {target}", "Đã đổi cài đặt {target}", "修改了设置 {target}", "修改了設定 {target}"},
	"domain.save":   {"Saved domain {target}", "Guardó el dominio {target}", "Menyimpan domain {target}", "Đã lưu tên miền {target}", "保存了域名 {target}", "儲存了網域 {target}"},
	"domain.delete": {"Deleted domain {target}", "Eliminó el dominio {target}", "Memadam domain {target}", "Đã xóa tên miền {target}", "删除了域名 {target}", "刪除了網域 {target}"},
	"file.upload":   {"Uploaded file {target}", "Subió el archivo {target}", "Memuat naik fail {target}", "Đã tải lên tệp {target}", "上传了文件 {target}", "上傳了檔案 {target}"},

	"demo.seed": {"Filled the store with demo data", "Llenó la base con datos de demostración", "Mengisi stor dengan data demo", "Đã nạp dữ liệu mẫu", "写入了演示数据", "寫入了示範資料"},
}

// orderStatusWords are an order's states in words, in apierr.Langs order.
var orderStatusWords = map[int][6]string{
	storage.OrderUnderReview: {"under review", "en revisión", "dalam semakan", "đang duyệt", "审核中", "審核中"},
	storage.OrderCompleted:   {"completed", "completado", "selesai", "hoàn tất", "已完成", "已完成"},
	storage.OrderFailed:      {"failed", "fallido", "gagal", "thất bại", "已失败", "已失敗"},
}

// auditCentsFields are the fields of a row's values that hold cents: shown
// in points with two decimals.
var auditCentsFields = map[string]bool{"amount": true, "minBet": true, "maxBet": true, "rechargeMax": true, "balance": true, "pendingExchanges": true}

// langIndex is the position of lang in apierr.Langs (en-US when unknown).
func langIndex(lang string) int {
	for i, l := range apierr.Langs {
		if l == lang {
			return i
		}
	}
	return 0
}

// auditFieldChange is one field of the object that an audited change set:
// its value before and after, as text ("" when absent on that side).
type auditFieldChange struct {
	Field  string `json:"field"`
	Before string `json:"before"`
	After  string `json:"after"`
}

// auditReading is a row of the audit log in words.
type auditReading struct {
	Text    string             `json:"text"`
	Changes []auditFieldChange `json:"changes"`
	Remark  string             `json:"remark,omitempty"`
	Reason  string             `json:"reason,omitempty"`
	IP      string             `json:"ip,omitempty"`
	UserID  string             `json:"userId,omitempty"`  // the player or operator the row is about
	OrderID string             `json:"orderId,omitempty"` // the order the row is about
	// OrderNo is that order's number (filled by the list, which reads the
	// order), so the console links to the order by what operators search.
	OrderNo string `json:"orderNo,omitempty"`
}

// auditActionName is an action in words for the console's picker: its
// sentence with the object and the amount left out ("…").
func auditActionName(lang, action string) string {
	text, ok := auditTexts[action]
	if !ok {
		return action
	}
	return strings.NewReplacer("{target}", "…", "{amount}", "…").Replace(text[langIndex(lang)])
}

// readAudit renders e in lang.
func readAudit(lang string, e storage.AuditEntry) auditReading {
	li := langIndex(lang)
	var d struct {
		IP     string          `json:"ip"`
		OSUser string          `json:"osUser"`
		Before json.RawMessage `json:"before"`
		After  json.RawMessage `json:"after"`
		Remark string          `json:"remark"`
		Reason string          `json:"reason"`
	}
	_ = json.Unmarshal([]byte(e.Detail), &d) // a row written by hand reads with what it has
	before, after := auditObject(d.Before), auditObject(d.After)
	out := auditReading{Remark: d.Remark, Reason: d.Reason, IP: d.IP}
	amount := ""
	switch {
	case strings.HasPrefix(e.Action, "recharge.") || strings.HasPrefix(e.Action, "exchange."):
		out.OrderID = e.Target
		if v, ok := after["userId"]; ok {
			out.UserID = auditText(li, "userId", v)
		}
		if v, ok := after["amount"]; ok {
			amount = auditText(li, "amount", v)
		}
	case strings.HasPrefix(e.Action, "user.") || strings.HasPrefix(e.Action, "operator."):
		out.UserID = e.Target
	}
	text, ok := auditTexts[e.Action]
	sentence := e.Action
	if ok {
		sentence = text[li]
	}
	out.Text = strings.NewReplacer("{target}", e.Target, "{amount}", amount).Replace(sentence)
	out.Changes = auditDiff(li, before, after)
	return out
}

// auditObject reads a before or after value as an object's fields; a value
// that is not an object (null, a list) is one field named "value".
func auditObject(raw json.RawMessage) map[string]any {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var v any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber() // ids exceed float64's exact integers
	if err := dec.Decode(&v); err != nil {
		return nil
	}
	if m, ok := v.(map[string]any); ok {
		return m
	}
	return map[string]any{"value": v}
}

// auditDiff lists the fields whose values differ between before and after
// (every field of the side there is, for a creation or a deletion), by name.
func auditDiff(li int, before, after map[string]any) []auditFieldChange {
	names := map[string]bool{}
	for k := range before {
		names[k] = true
	}
	for k := range after {
		names[k] = true
	}
	keys := make([]string, 0, len(names))
	for k := range names {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := []auditFieldChange{}
	for _, k := range keys {
		b, hasB := before[k]
		a, hasA := after[k]
		bt, at := "", ""
		if hasB {
			bt = auditText(li, k, b)
		}
		if hasA {
			at = auditText(li, k, a)
		}
		if bt == at && before != nil && after != nil {
			continue
		}
		out = append(out, auditFieldChange{Field: k, Before: bt, After: at})
	}
	return out
}

// auditText is one field's value as text: cents in points, an order's
// status in words, nested values as compact JSON.
func auditText(li int, field string, v any) string {
	switch x := v.(type) {
	case nil:
		return ""
	case string:
		return x
	case bool:
		return strconv.FormatBool(x)
	case json.Number:
		n, err := x.Int64()
		if err != nil {
			return x.String()
		}
		if auditCentsFields[field] {
			return wallet.FormatCents(n)
		}
		if field == "status" {
			if w, ok := orderStatusWords[int(n)]; ok {
				return w[li]
			}
		}
		return x.String()
	}
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}
