"""The lenses' sentences in the question's language (English, Spanish, Portuguese).

Each sentence is an English template with named slots; ``phrase`` picks the Spanish or
Portuguese template of the same slots. Slots carry what the code says as it is written:
names, citations, quoted lines and comments are never translated."""

from __future__ import annotations

from vigia.language import (
    STOPWORDS_EN,
    STOPWORDS_ES,
    STOPWORDS_PT,
    detect_language,
    word_set,
    words,
)

LANGUAGES = ("en", "es", "pt")

# English template → (Spanish, Portuguese).
PHRASES: dict[str, tuple[str, str]] = {
    # describe
    "{name} is a {what}{extra} defined{origin}{where} and used by {programs}.": (
        "{name} es un {what}{extra} definido{origin}{where} y usado por {programs}.",
        "{name} é um {what}{extra} definido{origin}{where} e usado por {programs}.",
    ),
    "It is written by {items}.": ("Lo escribe {items}.", "É escrito por {items}."),
    "It is read by {items}.": ("Lo lee {items}.", "É lido por {items}."),
    "The number of occurrences of {items} depends on it.": (
        "El número de ocurrencias de {items} depende de él.",
        "O número de ocorrências de {items} depende dele.",
    ),
    "{name} is a {kind} of program {program} ({span}){about}.": (
        "{name} es un {kind} del programa {program} ({span}){about}.",
        "{name} é um {kind} do programa {program} ({span}){about}.",
    ),
    "It reads {reads}.": ("Lee {reads}.", "Lê {reads}."),
    "It writes {writes}.": ("Escribe {writes}.", "Escreve {writes}."),
    "It reads {reads} and writes {writes}.": (
        "Lee {reads} y escribe {writes}.",
        "Lê {reads} e escreve {writes}.",
    ),
    "It performs {items}.": ("Ejecuta (PERFORM) {items}.", "Executa (PERFORM) {items}."),
    "It is performed by {items}.": (
        "Lo ejecuta (PERFORM) {items}.",
        "É executado (PERFORM) por {items}.",
    ),
    "{name} is a COBOL program ({span}){about}.": (
        "{name} es un programa COBOL ({span}){about}.",
        "{name} é um programa COBOL ({span}){about}.",
    ),
    "It is called by {items}.": ("Lo llama {items}.", "É chamado por {items}."),
    "Transaction {items} runs it.": (
        "La transacción {items} lo ejecuta.",
        "A transação {items} o executa.",
    ),
    "JCL runs it in {items}.": ("El JCL lo ejecuta en {items}.", "O JCL o executa em {items}."),
    "It copies {items}.": ("Copia {items}.", "Copia {items}."),
    "{name} is a copybook ({where}){about}.": (
        "{name} es un copybook ({where}){about}.",
        "{name} é um copybook ({where}){about}.",
    ),
    "It is copied by {items}.": ("Lo copian {items}.", "É copiado por {items}."),
    "With REPLACING: {items}.": ("Con REPLACING: {items}.", "Com REPLACING: {items}."),
    "JCL names it in {items}.": ("El JCL lo nombra en {items}.", "O JCL o nomeia em {items}."),
    "{name} is a dataset ({where}).": (
        "{name} es un dataset ({where}).",
        "{name} é um dataset ({where}).",
    ),
    "It is written by {items} ({programs}).": (
        "Lo escribe {items} ({programs}).",
        "É escrito por {items} ({programs}).",
    ),
    "It is read by {items} ({programs}).": (
        "Lo lee {items} ({programs}).",
        "É lido por {items} ({programs}).",
    ),
    "CICS reaches it as file {items}.": (
        "CICS lo accede como el archivo {items}.",
        "O CICS o acessa como o arquivo {items}.",
    ),
    "{name} is a JCL job ({where}){about}. Its steps {steps} run {programs}.": (
        "{name} es un job JCL ({where}){about}. Sus pasos {steps} ejecutan {programs}.",
        "{name} é um job JCL ({where}){about}. Seus passos {steps} executam {programs}.",
    ),
    "{name} is a JCL {kind} ({where}), {detail}.": (
        "{name} es un {kind} JCL ({where}), {detail}.",
        "{name} é um {kind} JCL ({where}), {detail}.",
    ),
    "{name} is a {kind}{owner} ({where}).": (
        "{name} es un {kind}{owner} ({where}).",
        "{name} é um {kind}{owner} ({where}).",
    ),
    "It is used by {items}.": ("Lo usa {items}.", "É usado por {items}."),
    # resources
    "{name} is a {kind} ({where}{about}).": (
        "{name} es un {kind} ({where}{about}).",
        "{name} é um {kind} ({where}{about}).",
    ),
    "Transaction {name} runs {items}.": (
        "La transacción {name} ejecuta {items}.",
        "A transação {name} executa {items}.",
    ),
    "It is the dataset {items}.": ("Es el dataset {items}.", "É o dataset {items}."),
    # evidence
    "{lead}{name} ({kind}, {span}{via}){about}.": (
        "{lead}{name} ({kind}, {span}{via}){about}.",
        "{lead}{name} ({kind}, {span}{via}){about}.",
    ),
    "{lead}“{text}” ({where}).": ("{lead}“{text}” ({where}).", "{lead}“{text}” ({where})."),
    "The screen is shown by {items}.": (
        "La pantalla la muestra {items}.",
        "A tela é mostrada por {items}.",
    ),
    "{program} is called by {items}.": (
        "A {program} lo llama {items}.",
        "{program} é chamado por {items}.",
    ),
    "{program} runs under {items}.": (
        "{program} se ejecuta bajo {items}.",
        "{program} é executado sob {items}.",
    ),
    "Code: “{text}” ({where}).": ("Código: “{text}” ({where}).", "Código: “{text}” ({where})."),
    # qa
    "In {path}: “{text}” ({where}).": (
        "En {path}: “{text}” ({where}).",
        "Em {path}: “{text}” ({where}).",
    ),
    "I found nothing about this in world {world}{under}.": (
        "No encontré nada sobre esto en el mundo {world}{under}.",
        "Não encontrei nada sobre isto no mundo {world}{under}.",
    ),
    # impact
    "It is reached through PERFORM from {items}.": (
        "Se llega a él por PERFORM desde {items}.",
        "É alcançado por PERFORM a partir de {items}.",
    ),
    "Programs that call into it (transitively): {items}.": (
        "Programas que lo llaman (transitivamente): {items}.",
        "Programas que o chamam (transitivamente): {items}.",
    ),
    "CICS transactions that run an affected program: {items}.": (
        "Transacciones CICS que ejecutan un programa afectado: {items}.",
        "Transações CICS que executam um programa afetado: {items}.",
    ),
    "JCL steps that run an affected program: {items}.": (
        "Pasos JCL que ejecutan un programa afectado: {items}.",
        "Passos JCL que executam um programa afetado: {items}.",
    ),
    "JCL that names {name}: {items}.": (
        "JCL que nombra {name}: {items}.",
        "JCL que nomeia {name}: {items}.",
    ),
    "Changing {name}{origin}{where} affects the code that uses it: {items}.": (
        "Cambiar {name}{origin}{where} afecta al código que lo usa: {items}.",
        "Mudar {name}{origin}{where} afeta o código que o usa: {items}.",
    ),
    "Tables whose size depends on it (OCCURS DEPENDING ON): {items}.": (
        "Tablas cuyo tamaño depende de él (OCCURS DEPENDING ON): {items}.",
        "Tabelas cujo tamanho depende dele (OCCURS DEPENDING ON): {items}.",
    ),
    "Programs that use it: {items}.": (
        "Programas que lo usan: {items}.",
        "Programas que o usam: {items}.",
    ),
    "Copybook {name} is copied by {items}; each must be recompiled.": (
        "El copybook {name} lo copian {items}; hay que recompilar cada uno.",
        "O copybook {name} é copiado por {items}; cada um deve ser recompilado.",
    ),
    "Programs affected by a change to {name}: {items}.": (
        "Programas afectados por un cambio en {name}: {items}.",
        "Programas afetados por uma mudança em {name}: {items}.",
    ),
    "Changing copybook {name} ({where}) affects every program that copies it.": (
        "Cambiar el copybook {name} ({where}) afecta a todo programa que lo copia.",
        "Mudar o copybook {name} ({where}) afeta todo programa que o copia.",
    ),
    "Changing dataset {name} ({where}) affects the steps that use it: {items}.": (
        "Cambiar el dataset {name} ({where}) afecta a los pasos que lo usan: {items}.",
        "Mudar o dataset {name} ({where}) afeta os passos que o usam: {items}.",
    ),
    "Changing {kind} {name}{owner} ({where}) affects what reaches it.": (
        "Cambiar {kind} {name}{owner} ({where}) afecta a lo que llega a él.",
        "Mudar {kind} {name}{owner} ({where}) afeta o que chega a ele.",
    ),
    "It writes {fields}.": ("Escribe {fields}.", "Escreve {fields}."),
    "It writes {fields}, read downstream by {items}.": (
        "Escribe {fields}, que luego lee {items}.",
        "Escreve {fields}, lidos depois por {items}.",
    ),
    "The question names no program, field, file or copybook; the closest code is {name} "
    "({where}).": (
        "La pregunta no nombra ningún programa, campo, archivo ni copybook; el código más "
        "cercano es {name} ({where}).",
        "A pergunta não nomeia nenhum programa, campo, arquivo ou copybook; o código mais "
        "próximo é {name} ({where}).",
    ),
    "I could not find a program, paragraph, field, copybook, table, file or dataset of that "
    "name in world {world}.": (
        "No encontré un programa, párrafo, campo, copybook, tabla, archivo ni dataset con ese "
        "nombre en el mundo {world}.",
        "Não encontrei um programa, parágrafo, campo, copybook, tabela, arquivo ou dataset com "
        "esse nome no mundo {world}.",
    ),
    # overview (knowledge off, first turn)
    "World {world} is registered but not indexed yet, so nothing is known of its files: run "
    "`vigia world index {id}`.": (
        "El mundo {world} está registrado pero aún no indexado, así que nada se sabe de sus "
        "archivos: ejecuta `vigia world index {id}`.",
        "O mundo {world} está registrado mas ainda não indexado, então nada se sabe de seus "
        "arquivos: execute `vigia world index {id}`.",
    ),
    "World {world} holds {files} files ({lines} lines) indexed as a code base.": (
        "El mundo {world} tiene {files} archivos ({lines} líneas) indexados como base de código.",
        "O mundo {world} tem {files} arquivos ({lines} linhas) indexados como base de código.",
    ),
    "Its files: {items}.": ("Sus archivos: {items}.", "Seus arquivos: {items}."),
    "Its code defines {items}.": ("Su código define {items}.", "Seu código define {items}."),
    "Programs: {items}.": ("Programas: {items}.", "Programas: {items}."),
    "Its {path} begins: “{text}”.": (
        "Su {path} empieza: “{text}”.",
        "Seu {path} começa: “{text}”.",
    ),
    "Knowledge is off for this message, so world {world} was not searched; send knowledge: "
    "true for an answer grounded in its files.": (
        "El conocimiento está desactivado en este mensaje, así que no se buscó en el mundo "
        "{world}; envía knowledge: true para una respuesta basada en sus archivos.",
        "O conhecimento está desativado nesta mensagem, então o mundo {world} não foi "
        "pesquisado; envie knowledge: true para uma resposta baseada em seus arquivos.",
    ),
    "From earlier in this conversation: {text}": (
        "De antes en esta conversación: {text}",
        "De antes nesta conversa: {text}",
    ),
    # troubleshoot
    "It sets {items}.": ("Asigna {items}.", "Atribui {items}."),
    "{name} is reached by: {chain} → {name}.": (
        "Se llega a {name} por: {chain} → {name}.",
        "Chega-se a {name} por: {chain} → {name}.",
    ),
    "Candidate cause {number}: {writer} sets {field}: “{text}” ({where}).": (
        "Causa candidata {number}: {writer} asigna {field}: “{text}” ({where}).",
        "Causa candidata {number}: {writer} atribui {field}: “{text}” ({where}).",
    ),
    "Nothing in world {world} matches this symptom; name the program, paragraph or field "
    "involved.": (
        "Nada en el mundo {world} coincide con este síntoma; nombra el programa, párrafo o "
        "campo implicado.",
        "Nada no mundo {world} corresponde a este sintoma; nomeie o programa, parágrafo ou "
        "campo envolvido.",
    ),
}

# Single words and leads, English → (Spanish, Portuguese).
WORDS: dict[str, tuple[str, str]] = {
    "and": ("y", "e"),
    "more": ("más", "mais"),
    "program": ("programa", "programa"),
    "programs": ("programas", "programas"),
    "paragraph": ("párrafo", "parágrafo"),
    "section": ("sección", "seção"),
    "data item": ("dato", "item de dados"),
    "data": ("dato", "dado"),
    "condition": ("condición", "condição"),
    "cics_file": ("archivo CICS", "arquivo CICS"),
    "abend_code": ("código de abend", "código de abend"),
    "definition": ("definición", "definição"),
    "condition name": ("nombre de condición", "nome de condição"),
    "table": ("tabla", "tabela"),
    "file": ("archivo", "arquivo"),
    "CICS file": ("archivo CICS", "arquivo CICS"),
    "queue": ("cola", "fila"),
    "counter": ("contador", "contador"),
    "map": ("mapa", "mapa"),
    "mapset": ("mapset", "mapset"),
    "transaction": ("transacción", "transação"),
    "abend code": ("código de abend", "código de abend"),
    "cursor": ("cursor", "cursor"),
    "step": ("paso", "passo"),
    "job": ("job", "job"),
    "proc": ("procedimiento", "procedimento"),
    "dataset": ("dataset", "dataset"),
    "copybook": ("copybook", "copybook"),
    "It": ("", ""),
    " when “{condition}” ({where})": (
        " cuando “{condition}” ({where})",
        " quando “{condition}” ({where})",
    ),
    "defined outside the scope": ("definido fuera del alcance", "definido fora do escopo"),
    "no statement uses it": ("ninguna sentencia lo usa", "nenhuma instrução o usa"),
    "The closest code is ": ("El código más cercano es ", "O código mais próximo é "),
    "Also relevant: ": ("También relevante: ", "Também relevante: "),
    "The documentation says: ": ("La documentación dice: ", "A documentação diz: "),
    "Also documented: ": ("También documentado: ", "Também documentado: "),
    "In {program}, the closest paragraph is ": (
        "En {program}, el párrafo más cercano es ",
        "Em {program}, o parágrafo mais próximo é ",
    ),
    "Look first at ": ("Mira primero ", "Olhe primeiro "),
    "Also check ": ("Revisa también ", "Verifique também "),
    "Documented: ": ("Documentado: ", "Documentado: "),
    " in copybook {origin}": (" en el copybook {origin}", " no copybook {origin}"),
    " (from copybook {origin})": (" (del copybook {origin})", " (do copybook {origin})"),
    ", defined at {where},": (", definido en {where},", ", definido em {where},"),
    " under {paths}": (" bajo {paths}", " em {paths}"),
    ", found through {via}": (", encontrado a través de {via}", ", encontrado por meio de {via}"),
    " of program {program}": (" del programa {program}", " do programa {program}"),
    " of {program}": (" de {program}", " de {program}"),
    "level {level} ": ("nivel {level} ", "nível {level} "),
    "COBOL programs": ("programas COBOL", "programas COBOL"),
    "copybooks": ("copybooks", "copybooks"),
    "JCL members": ("miembros JCL", "membros JCL"),
    "BMS map sets": ("conjuntos de mapas BMS", "conjuntos de mapas BMS"),
    "documents": ("documentos", "documentos"),
    "other source files": ("otros archivos fuente", "outros arquivos-fonte"),
    "text files": ("archivos de texto", "arquivos de texto"),
    "CICS transactions": ("transacciones CICS", "transações CICS"),
    "DB2 tables": ("tablas DB2", "tabelas DB2"),
    "CICS files": ("archivos CICS", "arquivos CICS"),
    "queues": ("colas", "filas"),
    "screens (maps)": ("pantallas (mapas)", "telas (mapas)"),
    "JCL jobs": ("jobs JCL", "jobs JCL"),
}


def _pick(table: dict[str, tuple[str, str]], lang: str, english: str) -> str:
    if lang not in ("es", "pt") or english not in table:
        return english
    return table[english][0 if lang == "es" else 1]


def phrase(lang: str, template: str, **values: object) -> str:
    """``template`` (English) in ``lang``, its slots filled with ``values`` as they are."""
    return _pick(PHRASES, lang, template).format(**values)


def word(lang: str, english: str, **values: object) -> str:
    """A word, a lead or a short piece of a sentence in ``lang``."""
    return _pick(WORDS, lang, english).format(**values)


# Short words (folded) that tell Spanish from Portuguese where the stop-word lists share them.
_ES_MARKERS = word_set(
    """
    el los las del al lo la y es esta hace hacen cual cuales donde pasa ocurre cambia si un
    llama llaman
    """
)
_PT_MARKERS = word_set(
    """
    o os faz fazem qual quais um uma onde nao sao isso esse essa pelo pela na nas da das ao
    em com e mudar muda acontece quem chama chamam
    """
)


def question_language(text: str) -> str:
    """The language to answer ``text`` in, from the function words only one of the three
    languages has (and Spanish or Portuguese letters); English when nothing tells (a bare
    name such as ``LGSTSQ?``), ``vigia.language.detect_language`` on a tie of the other two."""
    folded = set(words(text))
    own = {
        "es": (STOPWORDS_ES - STOPWORDS_PT - STOPWORDS_EN) | _ES_MARKERS,
        "pt": (STOPWORDS_PT - STOPWORDS_ES - STOPWORDS_EN) | _PT_MARKERS,
        "en": STOPWORDS_EN - STOPWORDS_ES - STOPWORDS_PT,
    }
    scores = {lang: len(folded & vocabulary) for lang, vocabulary in own.items()}
    lowered = text.lower()
    scores["pt"] += 2 * sum(ch in lowered for ch in "ãõç")
    scores["es"] += 2 * sum(ch in lowered for ch in "ñ¿¡")
    accented = sum(ch in lowered for ch in "áéíóúâêô")
    scores["es"] += accented
    scores["pt"] += accented
    best = max(scores.values())
    leaders = [lang for lang, score in scores.items() if score == best]
    if best == 0 or "en" in leaders:
        return "en"
    return leaders[0] if len(leaders) == 1 else detect_language(text)
