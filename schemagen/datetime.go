package schemagen

// isDateTime reports whether s is a "date-time" as the validator that
// schemagen's schemas were first checked with, santhosh-tekuri/jsonschema
// v6, asserted that format (RFC 3339 section 5.6), so that no argument
// accepted before is refused now or the reverse. Its details, all kept:
//   - 'T' and 'Z' may be lowercase;
//   - the date must exist (2023-02-29 does not; 0000-02-29 does);
//   - seconds may be 60, when the time converted to UTC is 23:59 (the offset
//     is applied without carrying into the date);
//   - a fraction of a second has any number of digits, at least one;
//   - each two-character number (hour, minute, second and those of the
//     offset) is read like strconv.Atoi, so "+5" means 5 and "-0" means 0.
//
// Decoding a time.Time still needs time.Parse to accept the string; the
// rare forms it refuses (a leap second, "+5") are reported then.
func isDateTime(s string) bool {
	if len(s) < 20 || (s[10] != 'T' && s[10] != 't') {
		return false
	}
	return isFullDate(s[:10]) && isFullTime(s[11:])
}

// isFullDate reports whether s, ten bytes long, is YYYY-MM-DD naming a day
// of the proleptic Gregorian calendar, as time.Parse("2006-01-02") checks.
func isFullDate(s string) bool {
	if s[4] != '-' || s[7] != '-' {
		return false
	}
	year, ok1 := digitsValue(s[0:4])
	month, ok2 := digitsValue(s[5:7])
	day, ok3 := digitsValue(s[8:10])
	if !ok1 || !ok2 || !ok3 || month < 1 || month > 12 || day < 1 {
		return false
	}
	return day <= daysIn(month, year)
}

// daysIn returns the number of days of a month of a year.
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}

// digitsValue returns the value of a string of ASCII digits.
func digitsValue(s string) (int, bool) {
	v := 0
	for i := 0; i < len(s); i++ {
		if !isASCIIDigit(s[i]) {
			return 0, false
		}
		v = v*10 + int(s[i]-'0')
	}
	return v, true
}

// isFullTime reports whether s is hh:mm:ss, an optional fraction, then Z
// or an offset ±hh:mm, with the ranges of RFC 3339 and its leap second.
func isFullTime(s string) bool {
	if len(s) < 9 || s[2] != ':' || s[5] != ':' {
		return false
	}
	h, ok1 := clockField(s[0:2])
	m, ok2 := clockField(s[3:5])
	sec, ok3 := clockField(s[6:8])
	if !ok1 || !ok2 || !ok3 || h > 23 || m > 59 || sec > 60 {
		return false
	}
	rest := s[8:]
	if len(rest) > 0 && rest[0] == '.' {
		i := 1
		for i < len(rest) && isASCIIDigit(rest[i]) {
			i++
		}
		if i == 1 {
			return false
		}
		rest = rest[i:]
	}
	if rest != "Z" && rest != "z" {
		if len(rest) != 6 || (rest[0] != '+' && rest[0] != '-') || rest[3] != ':' {
			return false
		}
		zh, ok1 := clockField(rest[1:3])
		zm, ok2 := clockField(rest[4:6])
		if !ok1 || !ok2 || zh > 23 || zm > 59 {
			return false
		}
		// The leap second is checked on the time in UTC.
		hm := h*60 + m
		if rest[0] == '+' {
			hm -= zh*60 + zm
		} else {
			hm += zh*60 + zm
		}
		if hm < 0 {
			hm += 24 * 60
		}
		h, m = hm/60, hm%60
	}
	return sec < 60 || (h == 23 && m == 59)
}

// clockField reads a two-character field the way strconv.Atoi would,
// refusing negative values: two digits, '+' and a digit, or "-0".
func clockField(s string) (int, bool) {
	switch {
	case isASCIIDigit(s[0]) && isASCIIDigit(s[1]):
		return int(s[0]-'0')*10 + int(s[1]-'0'), true
	case s[0] == '+' && isASCIIDigit(s[1]):
		return int(s[1] - '0'), true
	case s == "-0":
		return 0, true
	}
	return 0, false
}

// isASCIIDigit reports whether c is '0' to '9'.
func isASCIIDigit(c byte) bool { return c >= '0' && c <= '9' }
