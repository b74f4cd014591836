"""The console's one message catalog: every visible text in Spanish (the default) and
English. Templates call ``t(key)``; a key missing from the catalog shows as itself (and
``tests/console/test_catalogue.py`` fails). The texts of invalid input, of the users page,
of the evaluation pages and of the Uso page live in ``validation_texts``, ``user_texts``,
``vocabulary_texts``, ``evaluation_texts`` and ``usage_texts``."""

from __future__ import annotations

from collections.abc import Callable

from vigia.console.evaluation_texts import EVALUATION_TEXTS
from vigia.console.usage_texts import USAGE_TEXTS
from vigia.console.user_texts import USER_TEXTS
from vigia.console.validation_texts import VALIDATION_TEXTS
from vigia.console.vocabulary_texts import VOCABULARY_TEXTS

LANGUAGES = ("es", "en")

_TEXTS: dict[str, tuple[str, str]] = {
    # navigation (the Spanish link texts are part of the CLI contract)
    "nav.sections": ("Secciones", "Sections"),
    "nav.agents": ("Agentes", "Agents"),
    "nav.knowledge": ("Conocimiento", "Knowledge"),
    "nav.keys": ("Claves", "Keys"),
    "nav.conversations": ("Conversaciones", "Conversations"),
    "nav.inbox": ("Bandeja", "Inbox"),
    "nav.usage": ("Uso", "Usage"),
    "nav.evaluation": ("Evaluación", "Evaluation"),
    "nav.logout": ("Salir", "Log out"),
    "role.owner": ("dueño", "owner"),
    "role.admin": ("administración", "admin"),
    "role.operator": ("operación", "operator"),
    "role.viewer": ("lectura", "viewer"),
    # login, home, errors
    "login.title": ("Entrar a Vigia", "Log in to Vigia"),
    "login.username": ("Usuario", "User name"),
    "login.password": ("Contraseña", "Password"),
    "login.submit": ("Entrar", "Log in"),
    "login.invalid": ("Usuario o contraseña incorrectos.", "Wrong user name or password."),
    "home.no_workspace": ("Todavía no tenés un espacio de trabajo", "You have no workspace yet"),
    "home.no_workspace_hint": (
        "Pedile a quien administra Vigia que te dé un rol:",
        "Ask whoever runs Vigia to give you a role:",
    ),
    "error.title": ("No se pudo", "That did not work"),
    "error.back": ("Volver a la consola", "Back to the console"),
    "error.csrf": (
        "El formulario venció o no es de esta consola. Recargá la página y probá de nuevo.",
        "The form expired or does not come from this console. Reload the page and try again.",
    ),
    "error.role": (
        "Tu rol en este espacio no permite hacer esto.",
        "Your role in this workspace does not allow this.",
    ),
    "error.workspace": ("No existe ese espacio de trabajo.", "There is no such workspace."),
    # agents
    "agents.slug": ("Identificador", "Slug"),
    "agents.name": ("Nombre", "Name"),
    "agents.kind": ("Tipo", "Kind"),
    "agents.published": ("Publicado", "Published"),
    "agents.never": ("sin publicar", "never published"),
    "agents.none": ("Todavía no hay agentes.", "No agents yet."),
    "agents.new": ("Nuevo agente", "New agent"),
    "agents.create": ("Crear", "Create"),
    "agents.deleted": ("Agente borrado:", "Agent deleted:"),
    "agents.paused": (
        "Los agentes de este espacio están en pausa: se alcanzó el presupuesto del mes y no "
        "responden hasta el mes que viene o hasta que se suba el presupuesto.",
        "This workspace's agents are paused: the monthly budget was reached, and they do not "
        "answer until next month or until the budget is raised.",
    ),
    "agents.paused_raise": ("Subir el presupuesto en Uso", "Raise the budget in Usage"),
    "kind.internal": ("interno", "internal"),
    "kind.external": ("externo", "external"),
    "agent.published_as": ("Publicado como", "Published as"),
    "agent.draft_differs": ("el borrador tiene cambios", "the draft has changes"),
    "agent.draft_same": ("el borrador está publicado", "the draft is published"),
    "agent.saved": ("Borrador guardado.", "Draft saved."),
    "agent.diff": ("Borrador frente a publicado", "Draft against published"),
    "agent.no_changes": ("Sin cambios.", "No changes."),
    "agent.publish": ("Publicar", "Publish"),
    "agent.versions": ("Versiones", "Versions"),
    "agent.rollback": ("Volver a publicar", "Publish again"),
    "agent.confirm_rollback": (
        "¿Volver a publicar esta versión? Las claves de producción responden con ella enseguida.",
        "Publish this version again? Production keys answer with it at once.",
    ),
    "agent.restored": ("Se volvió a publicar la versión", "Published again: version"),
    "agent.publisher_unknown": ("sin registro de quién", "publisher not recorded"),
    "agent.same_as_draft": ("igual al borrador", "same as the draft"),
    "agent.require_eval": ("Publicar solo si pasan los casos", "Publish only if all cases pass"),
    "agent.gate_of": ("de", "of"),
    "agent.gate_failing": (
        "casos de evaluación fallan en el borrador: no se publicó.",
        "evaluation cases fail on the draft: nothing was published.",
    ),
    "agent.gate_no_cases": (
        "El agente no tiene casos de evaluación: agregá alguno antes de publicar así.",
        "The agent has no evaluation cases: add some before publishing this way.",
    ),
    "agent.gate_changed": (
        "El borrador cambió mientras corrían los casos: no se publicó. Probá de nuevo.",
        "The draft changed while its cases ran: nothing was published. Try again.",
    ),
    "agent.delete": ("Borrar el agente", "Delete the agent"),
    "agent.delete_help": (
        "Deja de responder y sus claves se revocan enseguida; sus conversaciones y ejecuciones "
        "se conservan hasta que la retención las borre.",
        "It stops answering and its keys are revoked at once; its conversations and runs are "
        "kept until retention removes them.",
    ),
    "agent.delete_type_slug": (
        "Escribí el identificador del agente para confirmar",
        "Type the agent's slug to confirm",
    ),
    "agent.delete_mismatch": (
        "El identificador escrito no es el de este agente: no se borró nada.",
        "The slug typed is not this agent's: nothing was deleted.",
    ),
    "agent.confirm_delete": (
        "¿Borrar el agente? No se puede deshacer.",
        "Delete the agent? This cannot be undone.",
    ),
    "version.published": ("Publicada el", "Published on"),
    "version.by": ("por", "by"),
    "version.knowledge_of": ("conocimiento del", "knowledge as of"),
    "version.against_production": (
        "Lo que cambiaría en producción al volver a publicarla",
        "What publishing it again would change in production",
    ),
    "version.config": ("Configuración de la versión", "The version's configuration"),
    "agent.knowledge_changes": (
        "Conocimiento que la versión publicada todavía no lee",
        "Knowledge the published version does not read yet",
    ),
    "agent.change_added": ("agregado", "added"),
    "agent.change_replaced": ("reemplazado", "replaced"),
    "agent.change_removed": ("quitado", "removed"),
    "agent.config": ("Configuración (borrador)", "Configuration (draft)"),
    "agent.instructions": ("Instrucciones", "Instructions"),
    "agent.language": ("Idioma", "Language"),
    "agent.memory_turns": ("Memoria (turnos de historial)", "Memory (history turns)"),
    "agent.top_k": ("Pasajes por respuesta", "Passages per answer"),
    "agent.model": ("Modelo", "Model"),
    "agent.provider": ("Proveedor", "Provider"),
    "agent.model_name": ("Nombre del modelo", "Model name"),
    "agent.base_url": ("URL base", "Base URL"),
    "agent.api_key_env": ("Variable con la clave", "Key variable"),
    "agent.api_key_secret": ("Secreto con la clave", "Key secret"),
    "agent.no_secret": ("ninguno", "none"),
    "agent.model_refused": (
        "El modelo no se puede usar así (hosts y variables los fija el operador; "
        "las claves van en los secretos del modelo):",
        "The model cannot be used like this (the operator sets hosts and variables; keys go "
        "in the model secrets):",
    ),
    "agent.temperature": ("Temperatura", "Temperature"),
    "agent.max_tokens": ("Máximo de tokens", "Max tokens"),
    "agent.guardrails": ("Guardrails", "Guardrails"),
    "agent.max_message_chars": ("Máximo de caracteres", "Max characters"),
    "agent.grounding_judge": ("Juez de fundamento", "Grounding judge"),
    "agent.blocked_topics": ("Temas bloqueados", "Blocked topics"),
    "agent.blocked_topics_hint": (
        "nombre: frases separadas por comas (uno por línea)",
        "name: phrases separated by commas (one per line)",
    ),
    "agent.replies": ("Respuestas configuradas", "Configured replies"),
    "agent.knowledge": ("Bases de conocimiento", "Knowledge bases"),
    "agent.tools": ("Herramientas", "Tools"),
    "agent.tools_json": (
        "Herramientas HTTP (JSON; los secretos van en variables de entorno)",
        "HTTP tools (JSON; secrets stay in environment variables)",
    ),
    "agent.save": ("Guardar borrador", "Save draft"),
    "guardrail.injection": ("Inyección de instrucciones", "Prompt injection"),
    "guardrail.length": ("Largo del mensaje", "Message length"),
    "guardrail.topics": ("Temas", "Topics"),
    "guardrail.grounding": ("Fundamento", "Grounding"),
    "guardrail.personal_data": ("Datos personales", "Personal data"),
    "mode.block": ("bloquear", "block"),
    "mode.log": ("registrar", "log"),
    "mode.off": ("apagado", "off"),
    "reply.no_answer": ("Sin respuesta", "No answer"),
    "reply.blocked": ("Pedido bloqueado", "Blocked request"),
    "reply.safe_output": ("Respuesta segura", "Safe output"),
    "reply.holding": ("Espera (derivada a una persona)", "Holding (handed to a person)"),
    "reply.greeting": ("Saludo", "Greeting"),
    "env.draft": ("Borrador", "Draft"),
    "env.production": ("Producción", "Production"),
    # playground
    "playground.title": ("Probar el agente", "Try the agent"),
    "playground.message": ("Mensaje", "Message"),
    "playground.placeholder": ("Escribí y apretá Enter", "Type and press Enter"),
    "playground.version": ("Versión", "Version"),
    "playground.send": ("Enviar", "Send"),
    "playground.new": ("Nueva conversación", "New conversation"),
    "playground.failed": ("No se pudo responder", "The turn failed"),
    "playground.status": ("Estado", "Status"),
    "playground.guardrails": ("Guardrails activados", "Guardrails fired"),
    "playground.citations": ("Fuentes", "Sources"),
    # knowledge
    "knowledge.base": ("Base", "Base"),
    "knowledge.documents": ("Documentos", "Documents"),
    "knowledge.document": ("Documento", "Document"),
    "knowledge.chunks": ("Fragmentos", "Chunks"),
    "knowledge.embedder": ("Codificador", "Encoder"),
    "knowledge.size": ("Tamaño", "Size"),
    "knowledge.none": ("Todavía no hay bases de conocimiento.", "No knowledge bases yet."),
    "knowledge.no_documents": ("Sin documentos.", "No documents."),
    "knowledge.status_indexing": ("indexando", "indexing"),
    "knowledge.status_failed": ("falló la indexación", "indexing failed"),
    "knowledge.new": ("Nueva base de conocimiento", "New knowledge base"),
    "knowledge.name": ("Nombre", "Name"),
    "knowledge.description": ("Descripción", "Description"),
    "knowledge.create": ("Crear", "Create"),
    "knowledge.upload": ("Subir un documento", "Upload a document"),
    "knowledge.upload_button": ("Subir", "Upload"),
    "knowledge.delete": ("Borrar", "Delete"),
    "knowledge.confirm_delete": ("¿Borrar este documento?", "Delete this document?"),
    "knowledge.delete_base": ("Borrar la base", "Delete the base"),
    "knowledge.confirm_delete_base": (
        "¿Borrar la base con todos sus documentos?",
        "Delete the base with all its documents?",
    ),
    "knowledge.search": ("Probar la búsqueda", "Try the search"),
    "knowledge.query": ("Consulta", "Query"),
    "knowledge.search_button": ("Buscar", "Search"),
    "knowledge.no_passages": ("Ningún pasaje.", "No passages."),
    "knowledge.page": ("pág.", "p."),
    # keys
    "keys.name": ("Nombre", "Name"),
    "keys.prefix": ("Comienzo", "Prefix"),
    "keys.env": ("Versión", "Version"),
    "keys.agent": ("Agente", "Agent"),
    "keys.scopes": ("Permisos", "Scopes"),
    "keys.state": ("Estado", "State"),
    "keys.active": ("activa", "active"),
    "keys.revoked": ("revocada", "revoked"),
    "keys.revoke": ("Revocar", "Revoke"),
    "keys.confirm_revoke": (
        "¿Revocar la clave? Deja de funcionar enseguida.",
        "Revoke the key? It stops working at once.",
    ),
    "keys.none": ("Todavía no hay claves.", "No keys yet."),
    "keys.new": ("Nueva clave", "New key"),
    "keys.create": ("Crear clave", "Create key"),
    "keys.created": ("Clave creada", "Key created"),
    "keys.shown_once": (
        "Copiala ahora: no se vuelve a mostrar.",
        "Copy it now: it is not shown again.",
    ),
    "keys.workspace_wide": ("todos los agentes", "every agent"),
    "keys.created_at": ("Creada", "Created"),
    "keys.last_used": ("Último uso", "Last used"),
    "keys.never_used": ("nunca", "never"),
    "keys.copy": ("Copiar", "Copy"),
    "keys.copied": ("Copiada", "Copied"),
    "secrets.title": ("Secretos del modelo", "Model secrets"),
    "secrets.help": (
        "Claves de proveedores de modelos, cifradas; nunca se vuelven a mostrar.",
        "Model provider keys, encrypted; never shown again.",
    ),
    "secrets.name": ("Nombre", "Name"),
    "secrets.value": ("Valor", "Value"),
    "secrets.updated": ("Actualizado", "Updated"),
    "secrets.none": ("Todavía no hay secretos.", "No secrets yet."),
    "secrets.save": ("Guardar secreto", "Save secret"),
    "secrets.delete": ("Borrar", "Delete"),
    "secrets.confirm_delete": (
        "¿Borrar el secreto? Los agentes que lo usan dejan de poder llamar al modelo.",
        "Delete the secret? Agents that use it can no longer call their model.",
    ),
    # conversations and inbox
    "conversations.conversation": ("Conversación", "Conversation"),
    "conversations.agent": ("Agente", "Agent"),
    "conversations.all_agents": ("Todos", "All"),
    "conversations.status": ("Estado", "Status"),
    "conversations.filter": ("Filtrar", "Filter"),
    "conversations.messages": ("Mensajes", "Messages"),
    "conversations.last": ("Último mensaje", "Last message"),
    "conversations.none": ("Ninguna conversación.", "No conversations."),
    "conversations.empty": ("Sin mensajes.", "No messages."),
    "conversations.take_over": ("Derivar a una persona", "Hand to a person"),
    "conversations.search": ("Buscar", "Search"),
    "conversations.search_hint": ("texto o id", "text or id"),
    "conversations.channel": ("Canal", "Channel"),
    "conversations.all_channels": ("Todos", "All"),
    "conversations.show_test": (
        "Incluir pruebas (playground y evaluación)",
        "Include tests (playground and evaluation)",
    ),
    "conversations.test_hidden": (
        "No se muestran las pruebas del playground ni las evaluaciones.",
        "Playground tests and evaluation runs are not shown.",
    ),
    "conversations.started": ("Inicio", "Started"),
    "conversations.marked": ("moderados", "moderated"),
    "conversations.pages": ("Páginas", "Pages"),
    "conversations.page": ("Página", "Page"),
    "conversations.previous": ("← Anteriores", "← Previous"),
    "conversations.next": ("Siguientes →", "Next →"),
    "channel.openai": ("API", "API"),
    "channel.console": ("Playground de la consola", "Console playground"),
    "channel.eval": ("Evaluación", "Evaluation"),
    "channel.review": ("Agente externo", "External agent"),
    "moderation.blocked": ("Bloqueado por", "Blocked by"),
    "moderation.flagged": ("Marcado por", "Flagged by"),
    "moderation.refusal": ("Respuesta al mensaje bloqueado", "Reply to the blocked message"),
    "moderation.never_input": ("no llega al modelo", "never sent to the model"),
    "status.all": ("todas", "all"),
    "status.handoff": ("con una persona", "with a person"),
    "status.agent": ("con el agente", "with the agent"),
    "role_msg.user": ("Cliente", "Customer"),
    "role_msg.assistant": ("Agente", "Agent"),
    "role_msg.operator": ("Operador", "Operator"),
    "role_msg.system": ("Sistema", "System"),
    "trace.title": ("Traza", "Trace"),
    "trace.tokens": ("tokens", "tokens"),
    "trace.stage": ("Etapa", "Stage"),
    "trace.outcome": ("Resultado", "Outcome"),
    "trace.status_ok": ("ok", "ok"),
    "trace.status_blocked": ("bloqueada", "blocked"),
    "trace.status_handoff": ("derivada", "handed off"),
    "trace.status_error": ("error", "error"),
    "trace.status_budget_exceeded": ("sin presupuesto", "over budget"),
    "trace.status_tool_limit": ("sin más pasos de herramientas", "out of tool steps"),
    "inbox.hint": (
        "Conversaciones derivadas a una persona, la más reciente primero. Se actualiza sola.",
        "Conversations handed to a person, newest first. It updates by itself.",
    ),
    "inbox.empty": ("Nadie espera respuesta.", "Nobody is waiting."),
    "inbox.reply": ("Respuesta del operador", "Operator reply"),
    "inbox.send": ("Responder", "Reply"),
    "inbox.blank_reply": (
        "Escribí una respuesta: no puede quedar en blanco.",
        "Write a reply: it cannot be blank.",
    ),
    "inbox.new_messages": ("Mensajes nuevos: {n} (ver)", "New messages: {n} (show)"),
    "inbox.release": ("Devolver al agente", "Give back to the agent"),
    "inbox.release_confirm": (
        "¿Devolver la conversación al agente? Él responderá los próximos mensajes.",
        "Give the conversation back to the agent? It will answer the next messages.",
    ),
    "inbox.released": (
        "Conversación devuelta al agente: él responde los próximos mensajes.",
        "Conversation given back to the agent: it answers the next messages.",
    ),
    "inbox.take": ("Tomar", "Take"),
    "inbox.held_by": ("Atiende", "Handled by"),
    "inbox.unassigned": ("sin asignar", "unassigned"),
    "inbox.unread": ("sin leer", "unread"),
    "inbox.waiting": ("espera", "waiting"),
    "inbox.held_by_other": (
        "Otra persona atiende esta conversación; no se guardó tu respuesta.",
        "Someone else handles this conversation; your reply was not stored.",
    ),
}

_ALL = {
    **_TEXTS,
    **VALIDATION_TEXTS,
    **USER_TEXTS,
    **VOCABULARY_TEXTS,
    **EVALUATION_TEXTS,
    **USAGE_TEXTS,
}
MESSAGES: dict[str, dict[str, str]] = {
    lang: {key: texts[i] for key, texts in _ALL.items()} for i, lang in enumerate(LANGUAGES)
}


def translator(lang: str) -> Callable[[str], str]:
    """``t(key)`` for ``lang`` (Spanish for an unknown language)."""
    texts = MESSAGES.get(lang, MESSAGES[LANGUAGES[0]])

    def t(key: str) -> str:
        return texts.get(key, key)

    return t
