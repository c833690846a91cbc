//! The timestamps of recorded sessions (RFC 3339, as Claude Code and Codex write them) in
//! milliseconds since the Unix epoch, so `elapsed` replays as it was.

/// `2025-06-01T10:00:00.123Z` (or with an offset such as `+02:00`) in milliseconds since
/// the Unix epoch; `None` for anything else or a time before 1970
pub(crate) fn parse_rfc3339(text: &str) -> Option<u64> {
    let bytes = text.as_bytes();
    let number = |from: usize, len: usize| -> Option<i64> {
        let digits = text.get(from..from + len)?;
        if !digits.bytes().all(|byte| byte.is_ascii_digit()) {
            return None;
        }
        digits.parse().ok()
    };
    let separator = |at: usize, allowed: &[u8]| bytes.get(at).is_some_and(|b| allowed.contains(b));
    let separators = [
        (4, &b"-"[..]),
        (7, b"-"),
        (10, b"Tt "),
        (13, b":"),
        (16, b":"),
    ];
    if !separators
        .iter()
        .all(|(at, allowed)| separator(*at, allowed))
    {
        return None;
    }
    let (year, month, day) = (number(0, 4)?, number(5, 2)?, number(8, 2)?);
    let (hour, minute, second) = (number(11, 2)?, number(14, 2)?, number(17, 2)?);
    if !(1..=12).contains(&month) || !(1..=31).contains(&day) || hour > 23 || minute > 59 {
        return None;
    }
    let mut rest = text.get(19..)?;
    let mut millis = 0;
    if let Some(fraction) = rest.strip_prefix('.') {
        let digits = fraction.bytes().take_while(u8::is_ascii_digit).count();
        if digits == 0 {
            return None;
        }
        let scaled: String = fraction
            .chars()
            .take(digits.min(3))
            .chain("000".chars())
            .take(3)
            .collect();
        millis = scaled.parse::<i64>().ok()?;
        rest = fraction.get(digits..)?;
    }
    let offset_minutes = match rest {
        "Z" | "z" => 0,
        _ => {
            let sign = match rest.get(..1)? {
                "+" => 1,
                "-" => -1,
                _ => return None,
            };
            let hours: i64 = rest.get(1..3)?.parse().ok()?;
            let minutes: i64 = rest.get(4..6)?.parse().ok()?;
            if rest.len() != 6 || rest.get(3..4)? != ":" {
                return None;
            }
            sign * (hours * 60 + minutes)
        }
    };
    let days = days_from_civil(year, month, day);
    let seconds = days * 86_400 + hour * 3_600 + minute * 60 + second - offset_minutes * 60;
    u64::try_from(seconds * 1_000 + millis).ok()
}

/// Days from 1970-01-01 to the given date of the proleptic Gregorian calendar (Howard
/// Hinnant's `days_from_civil`)
fn days_from_civil(year: i64, month: i64, day: i64) -> i64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year.div_euclid(400);
    let year_of_era = year - era * 400;
    let month_from_march = (month + 9) % 12;
    let day_of_year = (153 * month_from_march + 2) / 5 + day - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timestamps_read_as_unix_milliseconds() {
        // Values from `date -u -d ... +%s%3N`.
        assert_eq!(parse_rfc3339("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(
            parse_rfc3339("2025-06-01T10:00:00.123Z"),
            Some(1_748_772_000_123)
        );
        assert_eq!(
            parse_rfc3339("2025-06-01T12:00:00.1+02:00"),
            Some(1_748_772_000_100)
        );
        assert_eq!(
            parse_rfc3339("2024-02-29T23:59:59Z"),
            Some(1_709_251_199_000)
        );
        for bad in [
            "",
            "2025-06-01",
            "2025-13-01T00:00:00Z",
            "2025-06-01T10:00:00",
            "1969-12-31T23:59:59Z",
        ] {
            assert_eq!(parse_rfc3339(bad), None, "{bad}");
        }
    }
}
