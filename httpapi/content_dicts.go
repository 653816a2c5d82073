package httpapi

// Labels of the /dictMaps dictionaries in the six languages.

func init() {
	AddMessages(Messages{
		"content.dict.all": {
			"en-US": "All", "es-ES": "Todos", "ms-MY": "Semua", "vi-VN": "Tất cả", "zh-CN": "全部", "zh-HANT": "全部",
		},
		"content.dict.today": {
			"en-US": "Today", "es-ES": "Hoy", "ms-MY": "Hari ini", "vi-VN": "Hôm nay", "zh-CN": "今天", "zh-HANT": "今天",
		},
		"content.dict.days": {
			"en-US": "Last {n} days", "es-ES": "Últimos {n} días", "ms-MY": "{n} hari lepas", "vi-VN": "{n} ngày qua",
			"zh-CN": "近 {n} 天", "zh-HANT": "近 {n} 天",
		},
		"content.dict.language": {
			"en-US": "English", "es-ES": "Español", "ms-MY": "Bahasa Melayu", "vi-VN": "Tiếng Việt",
			"zh-CN": "简体中文", "zh-HANT": "繁體中文",
		},
		"content.dict.big": {
			"en-US": "Big", "es-ES": "Grande", "ms-MY": "Besar", "vi-VN": "Tài", "zh-CN": "大", "zh-HANT": "大",
		},
		"content.dict.small": {
			"en-US": "Small", "es-ES": "Pequeño", "ms-MY": "Kecil", "vi-VN": "Xỉu", "zh-CN": "小", "zh-HANT": "小",
		},
		"content.dict.single": {
			"en-US": "Odd", "es-ES": "Impar", "ms-MY": "Ganjil", "vi-VN": "Lẻ", "zh-CN": "单", "zh-HANT": "單",
		},
		"content.dict.double": {
			"en-US": "Even", "es-ES": "Par", "ms-MY": "Genap", "vi-VN": "Chẵn", "zh-CN": "双", "zh-HANT": "雙",
		},
		"content.dict.unmatched": {
			"en-US": "Not matched", "es-ES": "No emparejado", "ms-MY": "Tidak dipadankan", "vi-VN": "Chưa khớp",
			"zh-CN": "未匹配", "zh-HANT": "未匹配",
		},
		"content.dict.matched": {
			"en-US": "Matched", "es-ES": "Emparejado", "ms-MY": "Dipadankan", "vi-VN": "Đã khớp",
			"zh-CN": "已匹配", "zh-HANT": "已匹配",
		},
		"content.dict.income": {
			"en-US": "Income", "es-ES": "Ingresos", "ms-MY": "Pendapatan", "vi-VN": "Thu nhập", "zh-CN": "收入", "zh-HANT": "收入",
		},
		"content.dict.expenditure": {
			"en-US": "Expenditure", "es-ES": "Gastos", "ms-MY": "Perbelanjaan", "vi-VN": "Chi tiêu", "zh-CN": "支出", "zh-HANT": "支出",
		},
		"content.dict.review": {
			"en-US": "Under review", "es-ES": "En revisión", "ms-MY": "Dalam semakan", "vi-VN": "Đang xét duyệt",
			"zh-CN": "审核中", "zh-HANT": "審核中",
		},
		"content.dict.success": {
			"en-US": "Successful", "es-ES": "Completado", "ms-MY": "Berjaya", "vi-VN": "Thành công", "zh-CN": "成功", "zh-HANT": "成功",
		},
		"content.dict.failed": {
			"en-US": "Failed", "es-ES": "Fallido", "ms-MY": "Gagal", "vi-VN": "Thất bại", "zh-CN": "失败", "zh-HANT": "失敗",
		},
		"content.dict.inactive": {
			"en-US": "Not activated", "es-ES": "No activada", "ms-MY": "Belum diaktifkan", "vi-VN": "Chưa kích hoạt",
			"zh-CN": "未激活", "zh-HANT": "未啟用",
		},
		"content.dict.active": {
			"en-US": "Activated", "es-ES": "Activada", "ms-MY": "Diaktifkan", "vi-VN": "Đã kích hoạt",
			"zh-CN": "已激活", "zh-HANT": "已啟用",
		},
		"content.dict.find": {
			"en-US": "Discover", "es-ES": "Descubrir", "ms-MY": "Terokai", "vi-VN": "Khám phá", "zh-CN": "发现", "zh-HANT": "發現",
		},
		"content.dict.passionate": {
			"en-US": "Live highlights", "es-ES": "Momentos destacados", "ms-MY": "Sorotan langsung", "vi-VN": "Điểm nhấn trực tiếp",
			"zh-CN": "精彩直播", "zh-HANT": "精彩直播",
		},
	})
}
