package org.docgemma.hapi;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.autoconfigure.elasticsearch.ElasticsearchRestClientAutoConfiguration;
import org.springframework.boot.autoconfigure.quartz.QuartzAutoConfiguration;
import org.springframework.boot.autoconfigure.thymeleaf.ThymeleafAutoConfiguration;

/**
 * Entry point of the local HAPI FHIR R4 server (JPA on H2).
 *
 * <p>Auto-configurations HAPI drags onto the classpath but this server does not use are excluded:
 * Quartz (HAPI schedules its own jobs), Thymeleaf and the Elasticsearch client (Hibernate Search is
 * disabled).
 */
@SpringBootApplication(exclude = {
    QuartzAutoConfiguration.class,
    ThymeleafAutoConfiguration.class,
    ElasticsearchRestClientAutoConfiguration.class
})
public class HapiServerApplication {

  public static void main(String[] args) {
    SpringApplication.run(HapiServerApplication.class, args);
  }
}
