// Every bundled provider. Adding one is adding a file beside this one and a line here.

import "./anthropic.js";
import "./azure-foundry.js";
import "./bedrock.js";
import "./custom.js";
import "./dashscope.js";
import "./deepseek.js";
import "./gemini.js";
import "./groq.js";
import "./llamacpp.js";
import "./lmstudio.js";
import "./minimax.js";
import "./mistral.js";
import "./moonshot.js";
import "./nvidia.js";
import "./ollama.js";
import "./openai-codex.js";
import "./openai.js";
import "./openrouter.js";
import "./vllm.js";
import "./xai.js";
import "./zai.js";
