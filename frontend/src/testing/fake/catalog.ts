// The fake's AI tool catalog: what KnowledgeService.Catalog lists and
// searches, and what the complex path's guide recommends.
import type { CatalogEntry } from "../../api/gotypes.gen";

export const CATALOG: CatalogEntry[] = [
  { id: "chatgpt", name: "ChatGPT", categories: ["writing", "research-search"], tasks: ["script"], description_en: "General assistant for drafting scripts and posts.", description_ko: "대본과 글 초안을 쓰는 범용 도우미.", url: "https://chatgpt.com", pricing: "free · Plus $20/month", pricing_ko: "무료 · Plus 월 $20", platforms: ["web"], languages: ["ko", "en"], last_checked: "2026-10-01" },
  { id: "vrew", name: "Vrew", categories: ["video"], tasks: ["subtitles"], description_en: "Video editor with automatic Korean subtitles.", description_ko: "한국어 자동 자막이 되는 영상 편집기.", url: "https://vrew.ai", pricing: "free · Pro $9.99/month", pricing_ko: "무료 · Pro 월 $9.99", platforms: ["windows", "mac"], languages: ["ko", "en"], last_checked: "2026-10-01" },
  { id: "capcut", name: "CapCut", categories: ["video"], tasks: ["editing"], description_en: "Short-form video editing with templates.", description_ko: "템플릿으로 쇼츠를 편집하는 도구.", url: "https://www.capcut.com", pricing: "free", pricing_ko: "무료", platforms: ["web", "mobile"], languages: ["ko", "en"], last_checked: "2026-10-01" },
  { id: "canva", name: "Canva", categories: ["presentation-design", "image"], tasks: ["thumbnail"], description_en: "Design tool with thumbnail templates.", description_ko: "썸네일 템플릿이 있는 디자인 도구.", url: "https://canva.com", pricing: "free · Pro $15/month", pricing_ko: "무료 · Pro 월 $15", platforms: ["web"], languages: ["ko", "en"], last_checked: "2026-10-01" },
  { id: "deepl", name: "DeepL", categories: ["translation"], tasks: ["translate"], description_en: "Accurate translation between Korean and English.", description_ko: "정확한 한영 번역.", url: "https://www.deepl.com", pricing: "free · Pro $8.74/month", pricing_ko: "free · Pro $8.74/month", platforms: ["web"], languages: ["ko", "en"], last_checked: "2026-10-01" },
];
