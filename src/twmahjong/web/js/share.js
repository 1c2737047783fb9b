// Sharing a line of text (a private room's code): the system's share sheet (Web
// Share API) where the browser has one, as on a phone; else the clipboard; else the
// text selected in a hidden field and copied the old way.
//
//   await shareText({ title: "台灣麻將", text: "房號 K7QF2M" })   -> "shared" | "copied" | "failed"
//
// "cancelled" is a share sheet the player closed: nothing to say.

export async function shareText({ title = "", text, url = "" }) {
  const data = { title, text: url ? `${text}\n${url}` : text };
  if (typeof navigator.share === "function" && (!navigator.canShare || navigator.canShare(data))) {
    try {
      await navigator.share(data);
      return "shared";
    } catch (e) {
      if (e?.name === "AbortError") return "cancelled";
      // NotAllowedError (no user gesture, a desktop without a target): copy instead
    }
  }
  try {
    await navigator.clipboard.writeText(data.text);
    return "copied";
  } catch {
    return legacyCopy(data.text) ? "copied" : "failed";
  }
}

function legacyCopy(text) {
  const field = document.createElement("textarea");
  field.value = text;
  field.setAttribute("readonly", "");
  field.style.cssText = "position:fixed;opacity:0;left:0;top:0";
  document.body.append(field);
  field.select();
  let ok = false;
  try {
    ok = document.execCommand("copy");
  } catch {
    ok = false;
  }
  field.remove();
  return ok;
}
