package httpapi

// Image captchas for registration (KJ_REGISTER_CAPTCHA) and the
// verification settings the forms read (/getVerifyType, /getVerify5Data).
//
// Images are drawn by github.com/mojocn/base64Captcha's digit driver: it is
// the maintained captcha library the Go module proxy serves (dchest/captcha
// is not available there), draws distorted digits on a noisy background
// without fonts or cgo, and leaves storage to us — answers go to the
// captchas table, so any node can check a captcha another node drew, and
// each one is deleted by its first check.

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"errors"
	"time"

	"github.com/mojocn/base64Captcha"

	"kj/auth"
	"kj/internal/apierr"
	"kj/storage"
)

const (
	CaptchaLength = 5
	CaptchaTTL    = 5 * time.Minute
	// Drawing costs CPU; one address may ask this many times a minute.
	captchaPerIPPerMinute = 30
)

var captchaDriver = base64Captcha.NewDriverDigit(80, 240, CaptchaLength, 0.7, 80)

func init() {
	registerArea(func(s *Server) {
		s.Post("/getCaptcha", Open, s.getCaptcha)
		s.Get("/getCaptcha", Open, s.getCaptcha)
		s.Post("/getVerifyType", Open, s.getVerifyType)
		s.Get("/getVerifyType", Open, s.getVerifyType)
		s.Post("/getVerify5Data", Open, s.getVerify5Data)
		s.Get("/getVerify5Data", Open, s.getVerify5Data)
	})
}

type captchaReply struct {
	CaptchaID string `json:"captchaId"`
	Image     string `json:"image"` // data:image/png;base64,...
	Length    int    `json:"length"`
	ExpiresIn int    `json:"expiresIn"` // seconds
}

func (s *Server) getCaptcha(c *Call) (any, error) {
	if err := s.countAttempt(c.Ctx, "captcha:ip:"+c.ClientIP(), captchaPerIPPerMinute, time.Minute); err != nil {
		return nil, err
	}
	answer := randomDigits(CaptchaLength)
	item, err := captchaDriver.DrawCaptcha(answer)
	if err != nil {
		return nil, err
	}
	id := auth.NewSecret()
	now := s.Clock.Now()
	if err := storage.CreateCaptcha(c.Ctx, s.DB, id, captchaHash(id, answer), now.Add(CaptchaTTL).UnixMilli(), now.UnixMilli()); err != nil {
		return nil, err
	}
	return captchaReply{CaptchaID: id, Image: item.EncodeB64string(), Length: CaptchaLength, ExpiresIn: int(CaptchaTTL / time.Second)}, nil
}

// checkCaptcha consumes captcha id: right, wrong or expired, it cannot be
// used again.
func (s *Server) checkCaptcha(ctx context.Context, id, code string) error {
	if id == "" {
		return apierr.Required("captchaId")
	}
	if code == "" {
		return apierr.Required("captchaCode")
	}
	if len(id) > 64 || len(code) > 16 {
		return apierr.Fail(apierr.CodeCaptchaWrong, "captcha.wrong")
	}
	hash, expiresAt, err := storage.TakeCaptcha(ctx, s.DB, id)
	if errors.Is(err, storage.ErrNotFound) {
		return apierr.Fail(apierr.CodeCaptchaWrong, "captcha.wrong")
	}
	if err != nil {
		return err
	}
	if s.Clock.Now().UnixMilli() >= expiresAt || subtle.ConstantTimeCompare([]byte(hash), []byte(captchaHash(id, code))) != 1 {
		return apierr.Fail(apierr.CodeCaptchaWrong, "captcha.wrong")
	}
	return nil
}

func captchaHash(id, answer string) string { return storage.HashSecret(id + ":" + answer) }

// randomDigits returns n decimal digits from crypto/rand.
func randomDigits(n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		panic("httpapi: crypto/rand failed: " + err.Error())
	}
	for i := range b {
		// 250 is the largest multiple of 10 below 256: redraw above it so
		// every digit is equally likely.
		for b[i] >= 250 {
			var one [1]byte
			if _, err := rand.Read(one[:]); err != nil {
				panic("httpapi: crypto/rand failed: " + err.Error())
			}
			b[i] = one[0]
		}
		b[i] = '0' + b[i]%10
	}
	return string(b)
}

// Verification types of a form.
const (
	VerifyNone    = "none"
	VerifyCaptcha = "captcha"
	VerifySMS     = "sms"
)

type verifyTypeReply struct {
	Register string `json:"register"`
	Login    string `json:"login"`
	Forget   string `json:"forget"`
	SetPhone string `json:"setPhone"`
}

// getVerifyType says which check each verified form needs: an image
// captcha, an SMS code or nothing.
func (s *Server) getVerifyType(c *Call) (any, error) {
	r := verifyTypeReply{Register: VerifyNone, Login: VerifyNone, Forget: VerifySMS, SetPhone: VerifyNone}
	if s.Config.RegisterCaptcha {
		r.Register = VerifyCaptcha
	}
	if s.Config.PhoneSMSRequired {
		r.SetPhone = VerifySMS
	}
	return r, nil
}

// verifyForm is one form's verification data.
type verifyForm struct {
	Verify   string   `json:"verify"`   // none, captcha or sms
	Required []string `json:"required"` // fields the server requires
}

type verifyLimits struct {
	Account  [2]int `json:"account"`  // length
	Password [2]int `json:"password"` // length
	Nickname [2]int `json:"nickname"` // characters
	Phone    [2]int `json:"phone"`    // digits
}

type verifySMS struct {
	CodeLength    int `json:"codeLength"`
	ResendSeconds int `json:"resendSeconds"`
	ExpiresIn     int `json:"expiresIn"`
}

type verifyLockout struct {
	MaxFailures   int `json:"maxFailures"`
	WindowSeconds int `json:"windowSeconds"`
	LockSeconds   int `json:"lockSeconds"`
}

type verify5Reply struct {
	Register    verifyForm    `json:"register"`
	Login       verifyForm    `json:"login"`
	Forget      verifyForm    `json:"forget"`
	SetPhone    verifyForm    `json:"setPhone"`
	SendSmsCode verifyForm    `json:"sendSmsCode"`
	Limits      verifyLimits  `json:"limits"`
	SMS         verifySMS     `json:"sms"`
	Lockout     verifyLockout `json:"lockout"`
}

// getVerify5Data answers the verification data of the five verified forms
// (register, login, forget, setPhone, sendSmsCode): which check each needs,
// the fields the server requires, the length limits of the account rules (accounts.go), the
// SMS timings and the sign-in lockout. We have no sliding puzzle; the image
// captcha is the only challenge.
func (s *Server) getVerify5Data(c *Call) (any, error) {
	vt, _ := s.getVerifyType(c)
	t := vt.(verifyTypeReply)
	rc, _ := s.registerConfig(c)
	setPhone := []string{"phone"}
	if s.Config.PhoneSMSRequired {
		setPhone = append(setPhone, "smsCode")
	}
	return verify5Reply{
		Register:    verifyForm{Verify: t.Register, Required: rc.(registerConfigReply).Required},
		Login:       verifyForm{Verify: t.Login, Required: []string{"account", "password", "platform"}},
		Forget:      verifyForm{Verify: t.Forget, Required: []string{"account", "phone", "smsCode", "password", "confirmPassword"}},
		SetPhone:    verifyForm{Verify: t.SetPhone, Required: setPhone},
		SendSmsCode: verifyForm{Verify: VerifyNone, Required: []string{"phone", "type"}},
		Limits: verifyLimits{
			Account:  [2]int{AccountMinLen, AccountMaxLen},
			Password: [2]int{PasswordMinLen, PasswordMaxLen},
			Nickname: [2]int{1, NicknameMaxLen},
			Phone:    [2]int{s.Config.PhoneMinDigits, s.Config.PhoneMaxDigits},
		},
		SMS: verifySMS{CodeLength: SMSCodeLength, ResendSeconds: int(s.Config.SMSResendInterval / time.Second),
			ExpiresIn: int(s.Config.SMSCodeTTL / time.Second)},
		Lockout: verifyLockout{MaxFailures: LoginMaxFailures, WindowSeconds: int(LoginFailureWindow / time.Second),
			LockSeconds: int(LoginLockTime / time.Second)},
	}, nil
}
