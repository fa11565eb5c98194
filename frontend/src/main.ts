import { mount } from "svelte";
import "./app.css";
import App from "./App.svelte";
import { createTransport } from "./api/transport";
import { makeServices } from "./services";

const target = document.getElementById("app");
if (!target) throw new Error("missing #app");

const app = mount(App, { target, props: { services: makeServices(createTransport(window)) } });

export default app;
