// Vigia console: the playground's streamed turns, upload progress, confirmations, the copy
// button of a new key and the inbox's live transcript.
// Loaded as a file (the CSP allows no inline script); htmx does the rest.
"use strict";

(function () {
  function readEvents(response, onEvent) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    let buffer = "";
    function pump() {
      return reader.read().then(function (chunk) {
        if (chunk.done) { return; }
        buffer += decoder.decode(chunk.value, { stream: true });
        let cut = buffer.indexOf("\n\n");
        while (cut >= 0) {
          const block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          block.split("\n").forEach(function (line) {
            if (line.startsWith("data: ")) { onEvent(JSON.parse(line.slice(6))); }
          });
          cut = buffer.indexOf("\n\n");
        }
        return pump();
      });
    }
    return pump();
  }

  function element(tag, className, text) {
    const node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined) { node.textContent = text; }
    return node;
  }

  function bubble(log, role, text) {
    const article = element("article", "message " + role);
    const body = element("p", "", text);
    article.appendChild(body);
    log.appendChild(article);
    log.scrollTop = log.scrollHeight;
    return { article: article, body: body };
  }

  function showResult(form, article, event) {
    const meta = element("p", "meta", form.dataset.statusLabel + ": " + event.status +
      " · " + event.env + " v" + event.version + " · " + event.tokens + " tokens");
    meta.dataset.role = "status";
    article.appendChild(meta);
    if (event.guardrails.length) {
      article.appendChild(element("p", "meta", form.dataset.guardrailsLabel));
      const list = element("ul");
      list.dataset.role = "guardrails";
      event.guardrails.forEach(function (name) { list.appendChild(element("li", "badge warn", name)); });
      article.appendChild(list);
    }
    if (event.citations.length) {
      article.appendChild(element("p", "meta", form.dataset.citationsLabel));
      const list = element("ol");
      list.dataset.role = "citations";
      event.citations.forEach(function (c) {
        const item = element("li", "", "[" + c.n + "] " + c.document +
          (c.page ? " p. " + c.page : "") + " · " + c.score.toFixed(3) + " — " + c.snippet);
        list.appendChild(item);
      });
      article.appendChild(list);
    }
  }

  function playground(form) {
    const log = document.getElementById("playground-log");
    const input = form.elements.namedItem("message");
    const conversation = form.elements.namedItem("conversation_id");
    const send = form.querySelector("button[type=submit]");
    send.disabled = false; // served disabled: without this handler a send is a bare stream
    form.querySelector("[data-action=new-conversation]").addEventListener("click", function () {
      conversation.value = "";
      log.replaceChildren();
      input.focus();
    });
    form.addEventListener("submit", function (submitted) {
      submitted.preventDefault();
      const text = input.value.trim();
      if (!text) { return; }
      const data = new FormData(form);
      input.value = "";
      send.disabled = true;
      bubble(log, "user", text);
      const reply = bubble(log, "assistant", "");
      reply.body.dataset.role = "reply";
      reply.body.classList.add("streaming");
      fetch(form.action, {
        method: "POST", body: data, credentials: "same-origin",
        headers: { "X-CSRF-Token": data.get("csrf") },
      }).then(function (response) {
        if (!response.ok) {
          reply.body.textContent = form.dataset.failed + " (" + response.status + ")";
          reply.article.classList.add("error");
          return;
        }
        return readEvents(response, function (event) {
          if (event.type === "delta") {
            reply.body.textContent += event.text;
          } else if (event.type === "done") {
            conversation.value = event.conversation_id;
            showResult(form, reply.article, event);
          } else if (event.type === "error") {
            reply.article.appendChild(element("p", "error", event.detail));
          }
          log.scrollTop = log.scrollHeight;
        });
      }).catch(function () {
        reply.body.textContent = form.dataset.failed;
      }).finally(function () {
        reply.body.classList.remove("streaming");
        send.disabled = false;
        input.focus();
      });
    });
  }

  function uploadProgress(form) {
    const bar = form.querySelector("[data-role=upload-progress]");
    form.addEventListener("htmx:xhr:progress", function (event) {
      if (event.detail.lengthComputable) {
        bar.hidden = false;
        bar.value = Math.round((event.detail.loaded / event.detail.total) * 100);
      }
    });
    form.addEventListener("htmx:afterRequest", function () { bar.hidden = true; form.reset(); });
  }

  // The open inbox transcript: every few seconds only the messages not shown yet are
  // appended (patched, never replaced), so the operator's scroll position and open traces
  // stay; new ones are announced by a button that scrolls to them when asked.
  function liveTranscript(box) {
    const log = box.querySelector("[data-role=transcript]");
    const notice = box.querySelector("[data-role=new-messages]");
    let unseen = 0;
    notice.addEventListener("click", function () {
      unseen = 0;
      notice.hidden = true;
      log.scrollTop = log.scrollHeight;
    });
    function patch(html) {
      const fresh = new DOMParser().parseFromString(html, "text/html");
      let added = 0;
      fresh.querySelectorAll("[data-message-id]").forEach(function (message) {
        const id = message.dataset.messageId;
        if (!log.querySelector("[data-message-id=\"" + id + "\"]")) {
          log.appendChild(document.importNode(message, true));
          added += 1;
        }
      });
      if (!added) { return; }
      const placeholder = log.querySelector("[data-role=no-messages]");
      if (placeholder) { placeholder.remove(); }
      unseen += added;
      notice.textContent = box.dataset.newText.replace("{n}", String(unseen));
      notice.hidden = false;
    }
    function poll() {
      fetch(box.dataset.poll, { credentials: "same-origin" }).then(function (response) {
        return response.ok ? response.text() : "";
      }).then(function (html) {
        if (html) { patch(html); }
      }).catch(function () { /* the next poll tries again */ }).finally(function () {
        window.setTimeout(poll, 3000);
      });
    }
    window.setTimeout(poll, 3000);
  }

  // A button with data-copy="ID" copies that element's text (a key shown once) and says so.
  document.addEventListener("click", function (event) {
    const button = event.target.closest ? event.target.closest("button[data-copy]") : null;
    if (!button) { return; }
    const source = document.getElementById(button.dataset.copy);
    if (!source || !navigator.clipboard) { return; }
    navigator.clipboard.writeText(source.textContent.trim()).then(function () {
      button.textContent = button.dataset.copied;
    }).catch(function () { /* the text stays selectable by hand */ });
  });

  document.addEventListener("submit", function (event) {
    const form = event.target;
    if (form.dataset && form.dataset.confirm && !window.confirm(form.dataset.confirm)) {
      event.preventDefault();
    }
  }, true);

  document.addEventListener("DOMContentLoaded", function () {
    const chat = document.getElementById("playground");
    if (chat) { playground(chat); }
    const upload = document.getElementById("upload");
    if (upload) { uploadProgress(upload); }
    const live = document.getElementById("live-transcript");
    if (live) { liveTranscript(live); }
  });
})();
