export * from "@iris/host";
