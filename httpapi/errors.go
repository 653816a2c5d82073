package httpapi

import (
	"errors"
	"net/http"
)

// Envelope codes. 0 is success; 401, 402 and 403 carry the client's
// session semantics (spec section 8); every other failure has a stable
// number, grouped by area, listed in the README:
//
//	1000-1099 common   1100-1199 accounts   1200-1299 wallet
//	1300-1399 chat     1400-1499 rounds     1500-1599 content
const (
	CodeOK              = 0
	CodeTokenExpired    = 401 // token missing or expired: renew with the jwt
	CodeLoginInvalid    = 402 // jwt rejected: sign in again
	CodeLoggedElsewhere = 403 // this session was replaced by a newer sign-in

	CodeBadRequest   = 1000 // malformed JSON, wrong types, unknown route
	CodeRequired     = 1001 // a required field is missing
	CodeInvalid      = 1002 // a field breaks its rule
	CodeOperatorOnly = 1003 // an operator route called by a user
	CodeTooLarge     = 1004 // request body over the cap
	CodeInternal     = 1005 // an unexpected server error (logged, never shown)
	CodeNotFound     = 1006 // the thing asked for does not exist or is not yours
	CodeRateLimited  = 1007 // too many requests
	CodeUnsupported  = 1008 // method not allowed on this route
	CodeSystemBusy   = 1009 // store unavailable; try again
)

// Error is a failure the client sees: an envelope code and a message key
// translated into the caller's language, with {placeholders} from Args.
type Error struct {
	Code   int
	Key    string
	Args   map[string]any
	Status int // HTTP status; 0 means 200 (the envelope carries the code)
}

func (e *Error) Error() string { return e.Key }

// Fail makes an Error with a code, a message key and optional args given as
// name, value pairs.
func Fail(code int, key string, kv ...any) *Error {
	e := &Error{Code: code, Key: key}
	if len(kv) > 0 {
		e.Args = make(map[string]any, len(kv)/2)
		for i := 0; i+1 < len(kv); i += 2 {
			e.Args[kv[i].(string)] = kv[i+1]
		}
	}
	return e
}

// WithStatus sets the HTTP status of the reply.
func (e *Error) WithStatus(status int) *Error { e.Status = status; return e }

// Required is the error of a missing field.
func Required(field string) *Error { return Fail(CodeRequired, "field.required", "field", field) }

// Invalid is the error of a field that breaks its rule.
func Invalid(field string) *Error { return Fail(CodeInvalid, "field.invalid", "field", field) }

// NotFound is the error of a missing (or someone else's) thing.
func NotFound() *Error { return Fail(CodeNotFound, "not.found") }

// asError converts any error returned by a handler into the client's view;
// unexpected errors become "system busy" without details.
func asError(err error) (*Error, bool) {
	var e *Error
	if errors.As(err, &e) {
		return e, true
	}
	return &Error{Code: CodeInternal, Key: "system.busy", Status: http.StatusInternalServerError}, false
}

func init() {
	AddMessages(Messages{
		"ok": {
			"en-US": "success", "es-ES": "éxito", "ms-MY": "berjaya", "vi-VN": "thành công",
			"zh-CN": "成功", "zh-HANT": "成功",
		},
		"system.busy": {
			"en-US": "System busy, please try again later", "es-ES": "Sistema ocupado, inténtelo más tarde",
			"ms-MY": "Sistem sibuk, sila cuba sebentar lagi", "vi-VN": "Hệ thống bận, vui lòng thử lại sau",
			"zh-CN": "系统繁忙，请稍后再试", "zh-HANT": "系統繁忙，請稍後再試",
		},
		"bad.request": {
			"en-US": "The request is malformed", "es-ES": "La solicitud no es válida",
			"ms-MY": "Permintaan tidak sah", "vi-VN": "Yêu cầu không hợp lệ",
			"zh-CN": "请求格式错误", "zh-HANT": "請求格式錯誤",
		},
		"bad.field.type": {
			"en-US": "Field {field} has the wrong type", "es-ES": "El campo {field} tiene un tipo incorrecto",
			"ms-MY": "Medan {field} mempunyai jenis yang salah", "vi-VN": "Trường {field} sai kiểu dữ liệu",
			"zh-CN": "字段 {field} 类型错误", "zh-HANT": "欄位 {field} 類型錯誤",
		},
		"field.required": {
			"en-US": "{field} is required", "es-ES": "{field} es obligatorio", "ms-MY": "{field} diperlukan",
			"vi-VN": "{field} là bắt buộc", "zh-CN": "{field} 不能为空", "zh-HANT": "{field} 不能為空",
		},
		"field.invalid": {
			"en-US": "{field} is invalid", "es-ES": "{field} no es válido", "ms-MY": "{field} tidak sah",
			"vi-VN": "{field} không hợp lệ", "zh-CN": "{field} 格式不正确", "zh-HANT": "{field} 格式不正確",
		},
		"too.large": {
			"en-US": "The request is too large", "es-ES": "La solicitud es demasiado grande",
			"ms-MY": "Permintaan terlalu besar", "vi-VN": "Yêu cầu quá lớn",
			"zh-CN": "请求内容过大", "zh-HANT": "請求內容過大",
		},
		"not.found": {
			"en-US": "Not found", "es-ES": "No encontrado", "ms-MY": "Tidak dijumpai", "vi-VN": "Không tìm thấy",
			"zh-CN": "不存在", "zh-HANT": "不存在",
		},
		"route.unknown": {
			"en-US": "Unknown API route", "es-ES": "Ruta de API desconocida", "ms-MY": "Laluan API tidak diketahui",
			"vi-VN": "Đường dẫn API không tồn tại", "zh-CN": "接口不存在", "zh-HANT": "介面不存在",
		},
		"method.unsupported": {
			"en-US": "Method not allowed", "es-ES": "Método no permitido", "ms-MY": "Kaedah tidak dibenarkan",
			"vi-VN": "Phương thức không được phép", "zh-CN": "不支持的请求方式", "zh-HANT": "不支援的請求方式",
		},
		"rate.limited": {
			"en-US": "Too many requests, please slow down", "es-ES": "Demasiadas solicitudes, vaya más despacio",
			"ms-MY": "Terlalu banyak permintaan, sila perlahan", "vi-VN": "Quá nhiều yêu cầu, vui lòng chậm lại",
			"zh-CN": "请求过于频繁，请稍后再试", "zh-HANT": "請求過於頻繁，請稍後再試",
		},
		"token.expired": {
			"en-US": "Login expired, please log in again", "es-ES": "La sesión ha caducado, inicie sesión de nuevo",
			"ms-MY": "Log masuk tamat tempoh, sila log masuk semula", "vi-VN": "Phiên đăng nhập đã hết hạn, vui lòng đăng nhập lại",
			"zh-CN": "登录已过期，请重新登录", "zh-HANT": "登入已過期，請重新登入",
		},
		"login.invalid": {
			"en-US": "Login invalid", "es-ES": "Inicio de sesión no válido", "ms-MY": "Log masuk tidak sah",
			"vi-VN": "Đăng nhập không hợp lệ", "zh-CN": "登录失效", "zh-HANT": "登入失效",
		},
		"logged.elsewhere": {
			"en-US": "Your account has logged in at another place", "es-ES": "Su cuenta ha iniciado sesión en otro lugar",
			"ms-MY": "Akaun anda telah log masuk di tempat lain", "vi-VN": "Tài khoản của bạn đã đăng nhập ở nơi khác",
			"zh-CN": "您的账号已在其他地方登录", "zh-HANT": "您的帳號已在其他地方登入",
		},
		"operator.only": {
			"en-US": "This page is for operators only", "es-ES": "Esta función es solo para operadores",
			"ms-MY": "Fungsi ini untuk operator sahaja", "vi-VN": "Chức năng này chỉ dành cho nhân viên vận hành",
			"zh-CN": "仅限运营人员操作", "zh-HANT": "僅限營運人員操作",
		},
	})
}
