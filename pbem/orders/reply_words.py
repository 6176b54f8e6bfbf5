"""How mail clients mark the mail a reply answers, in the languages pbem reads: one table.

Each row is one language: the words that open a dated attribution ("On <date>, <name> wrote:"),
the verbs that close one, the field names of a header block ("From:/Sent:/To:/Subject:") by what
they hold, the separators a client puts above an unquoted original ("-----Original Message-----",
"-------- Oorspronkelijk bericht --------"), a forward's separator, and the footers a phone
adds ("Sent from my iPhone"). The reader (`reply_marks`) compiles the rows into patterns; adding
a language is adding a row. Words are matched without regard to case or accents' width
(NFKC), so they are written as a client shows them.

A header field's role: "from", "date" (sent, date), "to" (to, cc) or "subject".
"""
from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["Language", "LANGUAGES"]


@dataclass(frozen=True)
class Language:
    name: str
    openers: tuple[str, ...] = ()     # first words of "On <date>, <name> wrote:"
    verbs: tuple[str, ...] = ()       # "wrote"
    fields: dict[str, tuple[str, ...]] = field(default_factory=dict)
    originals: tuple[str, ...] = ()   # "Original Message"
    forwarded: tuple[str, ...] = ()   # "Forwarded message"
    footers: tuple[str, ...] = ()     # "Sent from my" (the start of the line)


LANGUAGES: tuple[Language, ...] = (
    Language(
        "English", openers=("on",), verbs=("wrote", "writes", "has written"),
        fields={"from": ("from",), "date": ("sent", "date"), "to": ("to", "cc", "bcc"),
                "subject": ("subject",)},
        originals=("original message", "original", "reply message"),
        forwarded=("forwarded message", "begin forwarded message"),
        footers=("sent from my", "sent from mail for windows", "get outlook for", "sent from outlook",
                 "sent from yahoo mail", "sent from aol mobile mail", "sent from zoho mail",
                 "sent via the samsung")),
    Language(
        "German", openers=("am",), verbs=("schrieb", "hat geschrieben"),
        fields={"from": ("von",), "date": ("gesendet", "datum", "gesendet am"), "to": ("an", "cc", "kopie"),
                "subject": ("betreff",)},
        originals=("ursprüngliche nachricht", "original-nachricht", "originalnachricht", "ursprüngliche e-mail"),
        forwarded=("weitergeleitete nachricht", "anfang der weitergeleiteten nachricht"),
        footers=("von meinem", "gesendet von", "gesendet mit")),
    Language(
        "French", openers=("le",), verbs=("a écrit", "écrivait"),
        fields={"from": ("de", "expéditeur"), "date": ("envoyé", "envoyé le", "date", "date d'envoi"),
                "to": ("à", "a", "cc", "destinataire"), "subject": ("objet", "sujet")},
        originals=("message d'origine", "message original", "courriel original"),
        forwarded=("message transféré", "début du message réexpédié", "message réexpédié"),
        footers=("envoyé de mon", "envoyé depuis", "obtenir outlook pour")),
    Language(
        "Spanish", openers=("el",), verbs=("escribió",),
        fields={"from": ("de", "remitente"), "date": ("enviado", "enviado el", "fecha"),
                "to": ("para", "cc", "destinatario"), "subject": ("asunto",)},
        originals=("mensaje original",),
        forwarded=("mensaje reenviado", "mensaje de reenvío"),
        footers=("enviado desde mi", "enviado desde", "obtener outlook para")),
    Language(
        "Italian", openers=("il", "il giorno"), verbs=("ha scritto",),
        fields={"from": ("da", "mittente"), "date": ("inviato", "data", "inviato il"),
                "to": ("a", "cc", "destinatario"), "subject": ("oggetto",)},
        originals=("messaggio originale", "messaggio originario"),
        forwarded=("messaggio inoltrato", "inizio messaggio inoltrato"),
        footers=("inviato da", "inviato dal mio", "scarica outlook per")),
    Language(
        "Portuguese", openers=("em", "no dia"), verbs=("escreveu",),
        fields={"from": ("de", "remetente"), "date": ("enviado", "enviada", "enviada em", "enviado em", "data"),
                "to": ("para", "cc"), "subject": ("assunto",)},
        originals=("mensagem original",),
        forwarded=("mensagem encaminhada", "início da mensagem reencaminhada", "mensagem reencaminhada"),
        footers=("enviado do meu", "enviado de meu", "enviado a partir do")),
    Language(
        "Dutch", openers=("op",), verbs=("schreef", "heeft geschreven"),
        fields={"from": ("van", "afzender"), "date": ("verzonden", "datum", "verstuurd"),
                "to": ("aan", "cc"), "subject": ("onderwerp",)},
        originals=("oorspronkelijk bericht", "origineel bericht"),
        forwarded=("doorgestuurd bericht", "begin doorgestuurd bericht"),
        footers=("verzonden vanaf", "verstuurd vanaf", "verzonden met", "verzonden van")),
    Language(
        "Swedish", openers=("den",), verbs=("skrev",),
        fields={"from": ("från", "avsändare"), "date": ("skickat", "datum", "skickades"),
                "to": ("till", "kopia", "cc"), "subject": ("ämne",)},
        originals=("ursprungligt meddelande", "originalmeddelande"),
        forwarded=("vidarebefordrat meddelande", "vidarebefordrat brev"),
        footers=("skickat från",)),
    Language(
        "Norwegian", openers=("den",), verbs=("skrev",),
        fields={"from": ("fra", "avsender"), "date": ("sendt", "dato"), "to": ("til", "kopi", "cc"),
                "subject": ("emne",)},
        originals=("opprinnelig melding", "original melding"),
        forwarded=("videresendt melding", "videresendt e-post"),
        footers=("sendt fra",)),
    Language(
        "Danish", openers=("den",), verbs=("skrev",),
        fields={"from": ("fra",), "date": ("sendt", "dato"), "to": ("til", "cc"), "subject": ("emne",)},
        originals=("oprindelig meddelelse", "original meddelelse", "oprindelig besked"),
        forwarded=("videresendt meddelelse", "videresendt besked"),
        footers=("sendt fra",)),
    Language(
        "Finnish", verbs=("kirjoitti",),
        fields={"from": ("lähettäjä",), "date": ("lähetetty", "päivämäärä", "päiväys"),
                "to": ("vastaanottaja", "kopio"), "subject": ("aihe",)},
        originals=("alkuperäinen viesti",),
        forwarded=("välitetty viesti", "edelleenlähetetty viesti"),
        footers=("lähetetty iphonesta", "lähetetty android")),
    Language(
        "Polish", openers=("w dniu", "dnia"), verbs=("napisał", "napisała", "napisał(a)", "pisze"),
        fields={"from": ("od", "nadawca"), "date": ("wysłano", "data", "wysłane"), "to": ("do", "dw", "kopia"),
                "subject": ("temat",)},
        originals=("wiadomość oryginalna", "oryginalna wiadomość", "oryginalna wiadomosc"),
        forwarded=("wiadomość przekazana dalej", "przekazana wiadomość"),
        footers=("wysłane z", "wysłano z")),
    Language(
        "Czech", openers=("dne",), verbs=("napsal", "napsala", "napsal(a)"),
        fields={"from": ("od",), "date": ("odesláno", "datum"), "to": ("komu", "kopie"),
                "subject": ("předmět",)},
        originals=("původní zpráva", "původní e-mail"),
        forwarded=("přeposlaná zpráva",),
        footers=("odesláno z",)),
    Language(
        "Russian", verbs=("написал", "написала", "написал(а)", "пишет"),
        fields={"from": ("от",), "date": ("отправлено", "дата", "отправлено:"), "to": ("кому", "копия"),
                "subject": ("тема",)},
        originals=("исходное сообщение", "оригинальное сообщение", "исходное письмо"),
        forwarded=("пересылаемое сообщение", "пересланное сообщение"),
        footers=("отправлено с", "отправлено из")),
    Language(
        "Ukrainian", verbs=("пише", "написав", "написала", "написав(ла)"),
        fields={"from": ("від",), "date": ("надіслано", "дата"), "to": ("кому", "копія"),
                "subject": ("тема",)},
        originals=("оригінальне повідомлення", "вихідне повідомлення", "початкове повідомлення"),
        forwarded=("переслане повідомлення",),
        footers=("надіслано з",)),
    Language(
        "Turkish", verbs=("şunu yazdı", "yazdı"),
        fields={"from": ("kimden", "gönderen"), "date": ("gönderildi", "gönderilme", "tarih", "gönderilme tarihi"),
                "to": ("kime", "bilgi", "alıcı"), "subject": ("konu",)},
        originals=("orijinal mesaj", "özgün ileti", "asıl ileti"),
        forwarded=("iletilen mesaj", "iletilmiş ileti"),
        footers=("iphone'umdan gönderildi", "android cihazımdan gönderildi")),
    Language(
        "Greek", openers=("στις",), verbs=("έγραψε",),
        fields={"from": ("από",), "date": ("στάλθηκε", "ημερομηνία", "εστάλη"), "to": ("προς", "κοιν"),
                "subject": ("θέμα",)},
        originals=("αρχικό μήνυμα",),
        forwarded=("προωθημένο μήνυμα",),
        footers=("στάλθηκε από",)),
    Language(
        "Hungarian", verbs=("ezt írta", "írta"),
        fields={"from": ("feladó",), "date": ("elküldve", "dátum", "küldve"), "to": ("címzett", "másolat"),
                "subject": ("tárgy",)},
        originals=("eredeti üzenet", "eredeti levél"),
        forwarded=("továbbított üzenet", "továbbított levél"),
        footers=("iphone-ról küldve",)),
    Language(
        "Japanese", verbs=("書きました", "のメール"),
        fields={"from": ("差出人", "送信者"), "date": ("送信日時", "日付", "送信日"), "to": ("宛先", "cc"),
                "subject": ("件名",)},
        originals=("元のメッセージ", "元のメール", "オリジナルメッセージ"),
        forwarded=("転送メッセージ", "転送されたメッセージ"),
        footers=("iphoneから送信", "androidから送信")),
    Language(
        "Chinese", verbs=("写道", "寫道", "寫了"),
        fields={"from": ("发件人", "寄件者", "發件人", "寄件人"),
                "date": ("发送时间", "日期", "傳送時間", "寄件日期", "时间"),
                "to": ("收件人", "收件者", "抄送", "副本"), "subject": ("主题", "主旨", "主題")},
        originals=("原始邮件", "原始郵件", "原邮件"),
        forwarded=("转发的邮件", "轉寄郵件", "转发邮件"),
        footers=("发自我的", "從我的", "来自我的")),
)
