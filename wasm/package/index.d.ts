export * from "./lapiz.js";
