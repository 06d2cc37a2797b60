// The fake Mattermost's file upload (POST /api/v4/files), as the server takes it from a client: a
// multipart form with the channel's id (the query, or a field before the files) and one or more
// `files` parts, each up to FileSettings.MaxFileSize, into a channel the bot is a member of. The
// answer is 201 with the FileInfos; the files are attached by the post that names their ids
// (rest.ts).
import { extname } from "node:path";
import { fileJson, isId, MAX_FILE_BYTES, MmError, type MmFile, newId } from "./model.js";
import type { RestState } from "./rest.js";

// The server finds a file's type by its extension (mime.TypeByExtension).
const TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".pdf": "application/pdf",
  ".txt": "text/plain; charset=utf-8",
  ".csv": "text/csv; charset=utf-8",
  ".ogg": "audio/ogg",
};

export async function uploadFiles(
  s: RestState,
  contentType: string,
  raw: Buffer,
  query: URLSearchParams,
): Promise<{ status: number; json: unknown }> {
  if (!/^multipart\/form-data;/i.test(contentType))
    throw new MmError(
      400,
      "api.file.upload_file.bad_parse.app_error",
      "Unable to upload file. Image too large or bad form.",
    );
  let form: FormData;
  try {
    form = await new Response(new Uint8Array(raw), { headers: { "content-type": contentType } }).formData();
  } catch {
    throw new MmError(
      400,
      "api.file.upload_file.bad_parse.app_error",
      "Unable to upload file. Image too large or bad form.",
    );
  }
  // The server reads the form as a stream: a file part before the channel's id has nowhere to go.
  const names = [...form.keys()];
  const idAt = names.indexOf("channel_id");
  if (idAt > names.indexOf("files") && names.includes("files") && !query.get("channel_id"))
    throw new MmError(
      400,
      "api.file.upload_file.multipart.app_error",
      "Unable to upload file(s). channel_id must come before the files.",
    );
  const channelId = form.get("channel_id") ?? query.get("channel_id");
  if (!isId(channelId))
    throw new MmError(400, "api.context.invalid_param.app_error", "Invalid channel_id parameter.");
  const channel = s.channels.get(channelId);
  if (!channel?.members.has(s.bot.id))
    throw new MmError(
      403,
      "api.context.permissions.app_error",
      "You do not have the appropriate permissions.",
    );
  const parts = form.getAll("files").filter((p) => typeof p !== "string");
  if (parts.length === 0)
    throw new MmError(
      400,
      "api.file.upload_file.incorrect_number_of_files.app_error",
      "Unable to upload files. Incorrect number of files specified.",
    );
  const infos: MmFile[] = [];
  for (const part of parts) {
    if (part.size > MAX_FILE_BYTES)
      throw new MmError(
        413,
        "api.file.upload_file.too_large_detailed.app_error",
        `Unable to upload file ${part.name}. File is too large.`,
      );
    const file: MmFile = {
      id: newId(),
      user_id: s.bot.id,
      channel_id: channel.id,
      name: part.name,
      mime_type: TYPES[extname(part.name).toLowerCase()] ?? (part.type || "application/octet-stream"),
      bytes: Buffer.from(await part.arrayBuffer()),
      create_at: s.now(),
      post_id: "",
    };
    s.files.set(file.id, file);
    infos.push(file);
  }
  return { status: 201, json: { file_infos: infos.map(fileJson), client_ids: [] } };
}
