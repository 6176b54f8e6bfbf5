"""Replies as real mail clients write them, built around the GM's real mail.

Each file in ``samples/replies/`` describes one client's reply layout in one language (see the
README there): how the client words and lays out the attribution line or the header block above
the quoted original, how it quotes, what it puts around the player's own lines, in text, HTML or
both, with which charset and transfer encoding. ``build`` fills such a layout with a real mail
the GM sent (its text part, its HTML part, its From, To, Subject, Date and Message-ID) and the
orders the player writes, and returns the raw bytes of the reply, ready for the Maildir.

A layout is checked as it is built: the raw parses back to the text and HTML that were meant,
with the charset and transfer encoding the layout declares.
"""
from __future__ import annotations

import email
import email.policy
import email.utils
import html
import re
import textwrap
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from email.message import EmailMessage
from pathlib import Path

import yaml

from pbem.mail.flowed import unflow

SAMPLES = Path(__file__).parent / "samples" / "replies"

FORMS = ("text", "html", "multipart")
ENCODINGS = ("quoted-printable", "base64", "8bit", "7bit")
ORIGINALS = ("welcome", "report")
_REQUIRED = ("client", "language", "locale", "source", "form", "encoding", "charset",
             "subject_prefix", "original", "orders")
_KNOWN = set(_REQUIRED) | {"quote", "quote_blank", "wrap", "needs_reference", "sender_name", "mailer",
                           "html_line", "text", "html", "notes", "split_at", "date_offset_minutes"}

# Names of weekdays (Monday first) and months, as mail clients write them in each language:
# full, abbreviated, and (where the language inflects a month after a day number) the genitive.
LOCALES: dict[str, dict[str, list[str]]] = {
    "en": dict(
        wd="Monday Tuesday Wednesday Thursday Friday Saturday Sunday".split(),
        wd_abbr="Mon Tue Wed Thu Fri Sat Sun".split(),
        mon="January February March April May June July August September October November December".split(),
        mon_abbr="Jan Feb Mar Apr May Jun Jul Aug Sep Oct Nov Dec".split()),
    "de": dict(
        wd="Montag Dienstag Mittwoch Donnerstag Freitag Samstag Sonntag".split(),
        wd_abbr="Mo. Di. Mi. Do. Fr. Sa. So.".split(),
        mon="Januar Februar März April Mai Juni Juli August September Oktober November Dezember".split(),
        mon_abbr="Jan. Feb. März Apr. Mai Juni Juli Aug. Sept. Okt. Nov. Dez.".split()),
    "fr": dict(
        wd="lundi mardi mercredi jeudi vendredi samedi dimanche".split(),
        wd_abbr="lun. mar. mer. jeu. ven. sam. dim.".split(),
        mon="janvier février mars avril mai juin juillet août septembre octobre novembre décembre".split(),
        mon_abbr="janv. févr. mars avr. mai juin juil. août sept. oct. nov. déc.".split()),
    "es": dict(
        wd="lunes martes miércoles jueves viernes sábado domingo".split(),
        wd_abbr="lun mar mié jue vie sáb dom".split(),
        mon="enero febrero marzo abril mayo junio julio agosto septiembre octubre noviembre diciembre".split(),
        mon_abbr="ene feb mar abr may jun jul ago sept oct nov dic".split()),
    "it": dict(
        wd="lunedì martedì mercoledì giovedì venerdì sabato domenica".split(),
        wd_abbr="lun mar mer gio ven sab dom".split(),
        mon="gennaio febbraio marzo aprile maggio giugno luglio agosto settembre ottobre novembre dicembre".split(),
        mon_abbr="gen feb mar apr mag giu lug ago set ott nov dic".split()),
    "pt": dict(
        wd="segunda-feira terça-feira quarta-feira quinta-feira sexta-feira sábado domingo".split(),
        wd_abbr="seg. ter. qua. qui. sex. sáb. dom.".split(),
        mon="janeiro fevereiro março abril maio junho julho agosto setembro outubro novembro dezembro".split(),
        mon_abbr="jan. fev. mar. abr. mai. jun. jul. ago. set. out. nov. dez.".split()),
    "nl": dict(
        wd="maandag dinsdag woensdag donderdag vrijdag zaterdag zondag".split(),
        wd_abbr="ma di wo do vr za zo".split(),
        mon="januari februari maart april mei juni juli augustus september oktober november december".split(),
        mon_abbr="jan. feb. mrt. apr. mei jun. jul. aug. sep. okt. nov. dec.".split()),
    "sv": dict(
        wd="måndag tisdag onsdag torsdag fredag lördag söndag".split(),
        wd_abbr="mån tis ons tors fre lör sön".split(),
        mon="januari februari mars april maj juni juli augusti september oktober november december".split(),
        mon_abbr="jan. feb. mars apr. maj juni juli aug. sep. okt. nov. dec.".split()),
    "no": dict(
        wd="mandag tirsdag onsdag torsdag fredag lørdag søndag".split(),
        wd_abbr="man. tir. ons. tor. fre. lør. søn.".split(),
        mon="januar februar mars april mai juni juli august september oktober november desember".split(),
        mon_abbr="jan. feb. mar. apr. mai jun. jul. aug. sep. okt. nov. des.".split()),
    "da": dict(
        wd="mandag tirsdag onsdag torsdag fredag lørdag søndag".split(),
        wd_abbr="man. tirs. ons. tors. fre. lør. søn.".split(),
        mon="januar februar marts april maj juni juli august september oktober november december".split(),
        mon_abbr="jan. feb. mar. apr. maj jun. jul. aug. sep. okt. nov. dec.".split()),
    "fi": dict(
        wd="maanantai tiistai keskiviikko torstai perjantai lauantai sunnuntai".split(),
        wd_abbr="ma ti ke to pe la su".split(),
        mon=("tammikuu helmikuu maaliskuu huhtikuu toukokuu kesäkuu heinäkuu elokuu syyskuu lokakuu "
             "marraskuu joulukuu").split(),
        mon_gen=("tammikuuta helmikuuta maaliskuuta huhtikuuta toukokuuta kesäkuuta heinäkuuta elokuuta "
                 "syyskuuta lokakuuta marraskuuta joulukuuta").split(),
        mon_abbr="tammik. helmik. maalisk. huhtik. toukok. kesäk. heinäk. elok. syysk. lokak. marrask. jouluk.".split()),
    "pl": dict(
        wd="poniedziałek wtorek środa czwartek piątek sobota niedziela".split(),
        wd_abbr="pon. wt. śr. czw. pt. sob. niedz.".split(),
        mon="styczeń luty marzec kwiecień maj czerwiec lipiec sierpień wrzesień październik listopad grudzień".split(),
        mon_gen=("stycznia lutego marca kwietnia maja czerwca lipca sierpnia września października listopada "
                 "grudnia").split(),
        mon_abbr="sty lut mar kwi maj cze lip sie wrz paź lis gru".split()),
    "cs": dict(
        wd="pondělí úterý středa čtvrtek pátek sobota neděle".split(),
        wd_abbr="po út st čt pá so ne".split(),
        mon="leden únor březen duben květen červen červenec srpen září říjen listopad prosinec".split(),
        mon_gen="ledna února března dubna května června července srpna září října listopadu prosince".split(),
        mon_abbr="led úno bře dub kvě čvn čvc srp zář říj lis pro".split()),
    "ru": dict(
        wd="понедельник вторник среда четверг пятница суббота воскресенье".split(),
        wd_abbr="пн вт ср чт пт сб вс".split(),
        mon="январь февраль март апрель май июнь июль август сентябрь октябрь ноябрь декабрь".split(),
        mon_gen="января февраля марта апреля мая июня июля августа сентября октября ноября декабря".split(),
        mon_abbr="янв. февр. мар. апр. мая июн. июл. авг. сент. окт. нояб. дек.".split()),
    "uk": dict(
        wd="понеділок вівторок середа четвер пʼятниця субота неділя".split(),
        wd_abbr="пн вт ср чт пт сб нд".split(),
        mon="січень лютий березень квітень травень червень липень серпень вересень жовтень листопад грудень".split(),
        mon_gen=("січня лютого березня квітня травня червня липня серпня вересня жовтня листопада "
                 "грудня").split(),
        mon_abbr="січ. лют. бер. квіт. трав. черв. лип. серп. вер. жовт. лист. груд.".split()),
    "tr": dict(
        wd="Pazartesi Salı Çarşamba Perşembe Cuma Cumartesi Pazar".split(),
        wd_abbr="Pzt Sal Çar Per Cum Cmt Paz".split(),
        mon="Ocak Şubat Mart Nisan Mayıs Haziran Temmuz Ağustos Eylül Ekim Kasım Aralık".split(),
        mon_abbr="Oca Şub Mar Nis May Haz Tem Ağu Eyl Eki Kas Ara".split()),
    "el": dict(
        wd="Δευτέρα Τρίτη Τετάρτη Πέμπτη Παρασκευή Σάββατο Κυριακή".split(),
        wd_abbr="Δευ Τρί Τετ Πέμ Παρ Σάβ Κυρ".split(),
        mon=("Ιανουάριος Φεβρουάριος Μάρτιος Απρίλιος Μάιος Ιούνιος Ιούλιος Αύγουστος Σεπτέμβριος "
             "Οκτώβριος Νοέμβριος Δεκέμβριος").split(),
        mon_gen=("Ιανουαρίου Φεβρουαρίου Μαρτίου Απριλίου Μαΐου Ιουνίου Ιουλίου Αυγούστου Σεπτεμβρίου "
                 "Οκτωβρίου Νοεμβρίου Δεκεμβρίου").split(),
        mon_abbr="Ιαν Φεβ Μαρ Απρ Μαΐ Ιουν Ιουλ Αυγ Σεπ Οκτ Νοε Δεκ".split(),
        ampm=["π.μ.", "μ.μ."]),
    "hu": dict(
        wd="hétfő kedd szerda csütörtök péntek szombat vasárnap".split(),
        wd_abbr="H K Sze Cs P Szo V".split(),
        mon=("január február március április május június július augusztus szeptember október november "
             "december").split(),
        mon_abbr="jan. febr. márc. ápr. máj. jún. júl. aug. szept. okt. nov. dec.".split()),
    "ja": dict(
        wd="月曜日 火曜日 水曜日 木曜日 金曜日 土曜日 日曜日".split(),
        wd_abbr="月 火 水 木 金 土 日".split(),
        mon=[f"{n}月" for n in range(1, 13)],
        mon_abbr=[f"{n}月" for n in range(1, 13)],
        ampm=["午前", "午後"]),
    "zh": dict(
        wd="星期一 星期二 星期三 星期四 星期五 星期六 星期日".split(),
        wd_abbr="周一 周二 周三 周四 周五 周六 周日".split(),
        mon=[f"{n}月" for n in range(1, 13)],
        mon_abbr=[f"{n}月" for n in range(1, 13)],
        ampm=["上午", "下午"]),
    # Languages outside the twenty the reader knows by their words: read by the reference only.
    "et": dict(
        wd="esmaspäev teisipäev kolmapäev neljapäev reede laupäev pühapäev".split(),
        wd_abbr="E T K N R L P".split(),
        mon="jaanuar veebruar märts aprill mai juuni juuli august september oktoober november detsember".split(),
        mon_abbr="jaan veebr märts apr mai juuni juuli aug sept okt nov dets".split()),
    "vi": dict(
        wd=["Thứ Hai", "Thứ Ba", "Thứ Tư", "Thứ Năm", "Thứ Sáu", "Thứ Bảy", "Chủ Nhật"],
        wd_abbr=["Th 2", "Th 3", "Th 4", "Th 5", "Th 6", "Th 7", "CN"],
        mon=[f"tháng {n}" for n in range(1, 13)],
        mon_abbr=[f"thg {n}" for n in range(1, 13)],
        ampm=["SA", "CH"]),
    "is": dict(
        wd="mánudagur þriðjudagur miðvikudagur fimmtudagur föstudagur laugardagur sunnudagur".split(),
        wd_abbr="mán. þri. mið. fim. fös. lau. sun.".split(),
        mon="janúar febrúar mars apríl maí júní júlí ágúst september október nóvember desember".split(),
        mon_abbr="jan. feb. mar. apr. maí jún. júl. ágú. sep. okt. nóv. des.".split()),
}

_FIELD = re.compile(r"\{([A-Za-z][A-Za-z0-9_]*)\}")


@dataclass
class Layout:
    """One reply layout, as its YAML file describes it (see samples/replies/README.md)."""
    name: str
    client: str
    language: str
    locale: str
    source: dict
    form: str
    encoding: str
    charset: str
    subject_prefix: str
    original: str
    orders: list[str]
    quote: str = "> "
    quote_blank: str | None = None
    wrap: int | None = None
    needs_reference: bool = False
    sender_name: str = "George"
    mailer: str | None = None
    html_line: str = "<div>{line}</div>"
    text: str | None = None
    html: str | None = None
    notes: str = ""
    split_at: str | None = None
    date_offset_minutes: int = 17
    path: Path | None = field(default=None, repr=False)

    @property
    def marked(self) -> bool:
        """Whether the layout has anything a reader can know the quote by without the original:
        an attribution line, a header block or quote marks (every layout not marked
        ``needs_reference``)."""
        return not self.needs_reference


def load(path: Path | str) -> Layout:
    path = Path(path)
    if not path.is_absolute() and not path.exists():
        path = SAMPLES / (str(path) if str(path).endswith(".yaml") else f"{path}.yaml")
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    name = path.stem
    missing = [k for k in _REQUIRED if k not in data]
    unknown = sorted(set(data) - _KNOWN)
    if missing or unknown:
        raise ValueError(f"{name}: missing {missing}, unknown {unknown}")
    layout = Layout(name=name, path=path, **data)
    problems = []
    if layout.form not in FORMS:
        problems.append(f"form {layout.form!r}")
    if layout.encoding not in ENCODINGS:
        problems.append(f"encoding {layout.encoding!r}")
    if layout.original not in ORIGINALS:
        problems.append(f"original {layout.original!r}")
    if layout.locale not in LOCALES:
        problems.append(f"locale {layout.locale!r}")
    if layout.form in ("text", "multipart") and not layout.text:
        problems.append("no text template")
    if layout.form in ("html", "multipart") and not layout.html:
        problems.append("no html template")
    if not {"repo", "path", "license"} <= set(layout.source or {}):
        problems.append("source needs repo, path and license")
    if problems:
        raise ValueError(f"{name}: {', '.join(problems)}")
    return layout


def all_layouts() -> list[Layout]:
    return [load(p) for p in sorted(SAMPLES.glob("*.yaml"))]


# -- the GM's mail ----------------------------------------------------------------------------

def gm_text(gm: EmailMessage, as_flowed: bool = False) -> str:
    """The GM's text part as a client quotes it: its lines as they came (a client that knows no
    format=flowed, the stuffed spaces and the soft breaks' with them), or, `as_flowed`, read as
    flowed first (Thunderbird, Apple Mail: each paragraph one line, rewrapped by the quote)."""
    part = gm.get_body(preferencelist=("plain",)) if gm.is_multipart() else gm
    text = part.get_content().replace("\r\n", "\n").rstrip("\n")
    return unflow(text) if as_flowed and part.get_param("format") == "flowed" else text


def gm_html_inner(gm: EmailMessage) -> str | None:
    """What lies inside the <body> of the GM's HTML part (None when it has none)."""
    part = gm.get_body(preferencelist=("html",))
    if part is None or part.get_content_type() != "text/html":
        return None
    content = part.get_content()
    match = re.search(r"<body[^>]*>(.*)</body>", content, re.S | re.I)
    return (match.group(1) if match else content).strip("\n")


def text_as_html(text: str, line: str = "<div>{line}</div>", blank: str = "<div><br></div>") -> str:
    """The GM's text as a client's editor turns plain text into HTML, a <div> a line."""
    out = []
    for raw in text.split("\n"):
        if raw.strip():
            escaped = html.escape(raw, quote=False).replace("  ", "&nbsp; ")
            out.append(line.replace("{line}", escaped))
        else:
            out.append(blank)
    return "\n".join(out)


def _quote(text: str, prefix: str, blank: str | None, wrap: int | None) -> str:
    lines = text.split("\n")
    if wrap:
        wrapped = []
        for line in lines:
            room = max(20, wrap - len(prefix.expandtabs()))
            wrapped.extend(textwrap.wrap(line, room, break_long_words=False, break_on_hyphens=False)
                           if len(line) > room else [line])
        lines = wrapped
    blank = prefix.rstrip() if blank is None else blank
    return "\n".join((prefix + line) if line.strip() else blank for line in lines)


def _date_fields(when: datetime, locale: str) -> dict[str, str]:
    names = LOCALES[locale]
    wd, mon = when.weekday(), when.month - 1
    h12 = when.hour % 12 or 12
    ampm_local = names.get("ampm", ["AM", "PM"])[when.hour >= 12]
    return {
        "d": str(when.day), "dd": f"{when.day:02d}", "m": str(when.month), "mm": f"{when.month:02d}",
        "yyyy": str(when.year), "yy": f"{when.year % 100:02d}",
        "H": str(when.hour), "HH": f"{when.hour:02d}", "MM": f"{when.minute:02d}", "SS": f"{when.second:02d}",
        "h12": str(h12), "hh12": f"{h12:02d}", "ampm": "AM" if when.hour < 12 else "PM",
        "ampm_lower": "am" if when.hour < 12 else "pm", "ampm_local": ampm_local,
        "wd": names["wd"][wd], "wd_abbr": names["wd_abbr"][wd],
        "mon": names["mon"][mon], "mon_abbr": names["mon_abbr"][mon],
        "mon_short": names["mon_abbr"][mon].rstrip("."), "wd_short": names["wd_abbr"][wd].rstrip("."),
        "mon_gen": names.get("mon_gen", names["mon"])[mon],
        "tz": when.strftime("%z") or "+0000",
        "rfc_date": email.utils.format_datetime(when),
    }


def _fill(template: str, fields: dict[str, str], where: str) -> str:
    def one(match: re.Match) -> str:
        key = match.group(1)
        if key not in fields:
            raise KeyError(f"{where}: no field {{{key}}}")
        return fields[key]
    return _FIELD.sub(one, template)


@dataclass
class Reply:
    raw: bytes
    message_id: str
    text: str | None
    html: str | None


def build(layout: Layout, gm: EmailMessage, *, to: str, orders: list[str] | None = None,
          sender: str = "george@example.test", references: bool = True, message_id: str | None = None,
          variant: str = "", as_flowed: bool = False) -> Reply:
    """The raw reply `layout` makes to the GM's mail `gm`, with `orders` (the layout's own when
    None) written where the player writes, addressed to `to`. With `references` False the reply
    carries no In-Reply-To or References; `as_flowed`: the client read the GM's flowed text as
    flowed before quoting it."""
    orders = list(layout.orders if orders is None else orders)
    gm_name, gm_address = email.utils.parseaddr(str(gm["From"]))
    to_name, to_address = email.utils.parseaddr(str(gm["To"]))
    when = email.utils.parsedate_to_datetime(str(gm["Date"]))
    if when.tzinfo is None:
        when = when.replace(tzinfo=UTC)
    text = gm_text(gm, as_flowed)
    original_html = gm_html_inner(gm)
    if original_html is None:
        original_html = text_as_html(text)
    quoted = _quote(text, layout.quote, layout.quote_blank, layout.wrap)
    fields = {
        "orders": "\n".join(orders),
        "orders_html": "\n".join(layout.html_line.replace("{line}", html.escape(o, quote=False)) for o in orders),
        "quoted": quoted,
        "original": text,
        "original_html": original_html,
        "original_text_html": text_as_html(text),
        "gm_name": gm_name, "gm_address": gm_address, "gm_from": f"{gm_name} <{gm_address}>",
        "gm_name_html": html.escape(gm_name), "gm_address_html": html.escape(gm_address),
        "player_name": to_name or layout.sender_name, "player_address": to_address or sender,
        "subject": str(gm["Subject"]), "subject_html": html.escape(str(gm["Subject"]), quote=False),
        "gm_message_id": str(gm["Message-ID"]).strip("<>"),
        "sigdash": "-- ", "tab": "\t",
        **_date_fields(when, layout.locale),
    }
    for i, order in enumerate(orders, 1):
        fields[f"order{i}"] = order
        fields[f"order{i}_html"] = html.escape(order, quote=False)
    if layout.split_at:
        lines = quoted.split("\n")
        cut = next((i for i, line in enumerate(lines) if layout.split_at in line), None)
        if cut is None:
            raise ValueError(f"{layout.name}: split_at {layout.split_at!r} not in the quoted text")
        fields["quoted_1"], fields["quoted_2"] = "\n".join(lines[:cut]), "\n".join(lines[cut:])
    body_text = _fill(layout.text, fields, layout.name) if layout.text and layout.form != "html" else None
    body_html = _fill(layout.html, fields, layout.name) if layout.html and layout.form != "text" else None

    msg = EmailMessage()
    msg["From"] = email.utils.formataddr((layout.sender_name, sender))
    msg["To"] = email.utils.formataddr((gm_name, to))
    prefix = layout.subject_prefix.strip()
    msg["Subject"] = f"{prefix} {gm['Subject']}" if prefix else str(gm["Subject"])
    msg["Date"] = email.utils.format_datetime(when.replace(microsecond=0) +
                                              timedelta(minutes=layout.date_offset_minutes))
    message_id = message_id or f"<{layout.name}.{variant or 'r'}.{uuid.uuid4().hex[:12]}@player.test>"
    msg["Message-ID"] = message_id
    if references:
        msg["In-Reply-To"] = str(gm["Message-ID"])
        msg["References"] = str(gm["Message-ID"])
    if layout.mailer:
        msg["X-Mailer"] = layout.mailer
    cte = layout.encoding
    if body_text is not None:
        msg.set_content(body_text, subtype="plain", charset=layout.charset, cte=cte)
        if body_html is not None:
            msg.add_alternative(body_html, subtype="html", charset=layout.charset, cte=cte)
    else:
        msg.set_content(body_html, subtype="html", charset=layout.charset, cte=cte)
    raw = msg.as_bytes(policy=email.policy.SMTP.clone(linesep="\n"))
    check(layout, raw, body_text, body_html)
    return Reply(raw, message_id, body_text, body_html)


def check(layout: Layout, raw: bytes, text: str | None, body_html: str | None) -> None:
    """The raw parses back to `text` and `body_html`, in the layout's form, charset and encoding."""
    parsed = email.message_from_bytes(raw, policy=email.policy.default)
    parts = [p for p in parsed.walk() if not p.is_multipart()]
    want = {"text": ["text/plain"], "html": ["text/html"], "multipart": ["text/plain", "text/html"]}[layout.form]
    got = [p.get_content_type() for p in parts]
    problems = []
    if got != want:
        problems.append(f"parts {got}, meant {want}")
    if layout.form == "multipart" and parsed.get_content_type() != "multipart/alternative":
        problems.append(f"top {parsed.get_content_type()}")
    for part, meant in zip(parts, [t for t in (text, body_html) if t is not None]):
        if part.get_content_charset() != layout.charset.lower():
            problems.append(f"charset {part.get_content_charset()}, meant {layout.charset}")
        if str(part.get("Content-Transfer-Encoding", "7bit")).lower() != layout.encoding:
            problems.append(f"encoding {part.get('Content-Transfer-Encoding')}, meant {layout.encoding}")
        if part.get_content().replace("\r\n", "\n").rstrip("\n") != meant.rstrip("\n"):
            problems.append(f"{part.get_content_type()} does not read back as built")
    if problems:
        raise AssertionError(f"{layout.name}: " + "; ".join(problems))


# -- what the GM answered -----------------------------------------------------------------------

def acked_orders(answer_text: str) -> list[str] | None:
    """The orders an ack lists under "As I read them:" (None when it has no such block)."""
    lines = answer_text.splitlines()
    for i, line in enumerate(lines):
        if line.rstrip().endswith("As I read them:"):
            out, j = [], i + 1
            while j < len(lines) and not lines[j].strip():
                j += 1
            while j < len(lines) and lines[j].startswith("    ") and lines[j].strip():
                out.append(lines[j].strip())
                j += 1
            return out
    return None


def normalise(order: str) -> str:
    """An order as the comparison sees it: upper case, single spaces."""
    return " ".join(order.upper().split())
