// The parts of nodemailer and html-to-text the e-mail platform uses (neither ships types).
declare module "nodemailer" {
  export interface SendMailOptions {
    from: { name: string; address: string };
    to: string[];
    subject: string;
    text: string;
    messageId: string;
    inReplyTo?: string;
    references?: string[];
    headers?: Record<string, string>;
    attachments?: { filename: string; content: Buffer; contentType?: string }[];
  }
  export interface Transporter {
    sendMail(mail: SendMailOptions): Promise<{ messageId: string; accepted: string[]; rejected: string[] }>;
    verify(): Promise<true>;
    close(): void;
  }
  export function createTransport(options: {
    host: string;
    port: number;
    secure: boolean;
    auth: { user: string; pass: string };
    connectionTimeout?: number;
    greetingTimeout?: number;
    socketTimeout?: number;
    logger?: boolean;
  }): Transporter;
  const nodemailer: { createTransport: typeof createTransport };
  export default nodemailer;
}

declare module "html-to-text" {
  export function convert(
    html: string,
    options?: {
      wordwrap?: number | false;
      selectors?: { selector: string; format?: string; options?: Record<string, unknown> }[];
    },
  ): string;
}
